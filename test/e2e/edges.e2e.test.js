'use strict';
// The edges of the shared request path inside a real n8n (2.40 and 1.123), against the emulator
// started in this process while it misbehaves: secrets echoed in error bodies (never in the node's
// output, the execution data n8n stores, or n8n's log at debug level), an HTML page with 200 on AML,
// an API that never answers (short Timeout option);
// /auth and an operation answered 307 to another origin (a second loopback server counts what reaches
// it: nothing), an answer that trickles past the deadline and one over the size cap. In n8n 2.x, also
// its SSRF protection (N8N_SSRF_PROTECTION_ENABLED; n8n 1.x has none, README "Compatibility"): the
// emulator's loopback address is refused before anything reaches it, and allowing the address
// (N8N_SSRF_ALLOWED_IP_RANGES) or the host name (N8N_SSRF_ALLOWED_HOSTNAMES) lets the same workflow run.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput, nodeError, parseExecuteOutput } = require('./lib/instance');
const { defaultLog, emulatorControl, e2eVersions } = require('./lib/util');
const { startForeignOrigin } = require('./lib/foreign-origin');
const { action, perRefWorkflow, sandboxCredential, SANDBOX_CREDENTIAL_REF: CREDENTIAL, VALID_DEPOSIT } = require('./lib/workflows');

const VERSIONS = e2eVersions();

const AML = 'POST /aml/checkIndividual';
const DEPOSIT = 'POST /payments/challenge-deposit';
const AUTH = 'POST /auth';
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

const log = (message) => defaultLog(`[edges] ${message}`);

/** One item with the ref order-1 -> the node under test. */
const workflow = (id, tested) => perRefWorkflow(id, ['order-1'], [tested]);

const screen = (options = {}) =>
	action({
		name: 'Screen',
		resource: 'aml',
		parameters: { operation: 'checkIndividual', name: '=Person {{ $json.refs }}', options },
		credentials: CREDENTIAL,
	});

const deposit = () =>
	action({
		name: 'Deposit',
		resource: 'payments',
		parameters: { ...VALID_DEPOSIT, description: '={{ $json.refs }}' },
		credentials: CREDENTIAL,
	});

/** The emulator's credential by name (localhost), so that SSRF protection's host name allow-list has a name to match. */
const BY_NAME = { id: 'e2e-sandbox-by-name', name: 'Verification Services (sandbox emulator, by name)' };
const screenListed = action({
	name: 'Screen',
	resource: 'aml',
	parameters: { operation: 'checkIndividual', name: 'Viktor Sanctioned', options: {} },
	credentials: { verificationServicesApi: BY_NAME },
});
const SSRF_PROTECTED = { N8N_SSRF_PROTECTION_ENABLED: 'true' };

const WORKFLOWS = {
	ssrf: workflow('e2eEdgeSsrfAml01', screenListed),
	authEcho: workflow('e2eEdgeAuthEcho1', screen()),
	opEcho: workflow('e2eEdgeOpEcho001', screen({ maxRetries: 0 })),
	html: workflow('e2eEdgeHtml00001', screen()),
	hang: workflow('e2eEdgeHang00001', screen({ timeoutSeconds: 1 })),
	redirect: workflow('e2eEdgeRedirect1', screen({ maxRetries: 0 })),
	depositRedirect: workflow('e2eEdgeDepRedir1', deposit()),
	trickle: workflow('e2eEdgeTrickle01', screen({ timeoutSeconds: 1 })),
	oversize: workflow('e2eEdgeOversize1', screen()),
};

/**
 * At debug level n8n prints the --rawOutput JSON as one coloured log entry: a timestamp and "info"
 * before its opening brace, the entry's metadata after its closing one.
 */
function executionFromDebugLog(stdout) {
	const lines = stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
	const start = lines.findIndex((l) => /^\S+\s+info\s+\{$/.test(l.trimEnd()));
	if (start === -1) return parseExecuteOutput(stdout);
	const end = lines.findIndex((l, i) => i > start && /^\}( \{.*\})?$/.test(l.trimEnd()));
	if (end === -1) return null;
	try {
		return JSON.parse(['{', ...lines.slice(start + 1, end), '}'].join('\n'));
	} catch {
		return null;
	}
}

for (const version of VERSIONS) {
	describe(`n8n ${version}: the request path at the edges`, () => {
		const state = { sandbox: null, instance: null, foreign: null };

		const control = (method, controlPath, body) => emulatorControl(state.sandbox.url, method, controlPath, body);
		const count = async (route) => (await control('GET', 'stats')).counts[route] ?? 0;

		/** Resets the emulator, injects `failures`, runs the workflow with n8n's log at debug level. */
		const run = async (wf, failures = []) => {
			await control('POST', 'reset');
			await control('POST', 'config', { failures });
			const raw = await state.instance.execute(wf.id, { env: { N8N_LOG_LEVEL: 'debug' } });
			const execution = raw.execution ?? executionFromDebugLog(raw.stdout);
			assert.ok(execution, `n8n printed the execution of ${wf.id}:\n${raw.stdout.slice(-3000)}\n${raw.stderr.slice(-2000)}`);
			const resultData = execution.data?.resultData;
			return { ...raw, execution, resultData, runData: resultData?.runData, error: resultData?.error, errorMessage: resultData?.error?.message };
		};

		/** The key, the customer id and any JWT appear nowhere: output, execution data, log, database. */
		const assertNoSecrets = (result, what) => {
			const database = ['database.sqlite', 'database.sqlite-wal']
				.map((f) => path.join(state.instance.n8nFolder, f))
				.filter((f) => fs.existsSync(f))
				.map((f) => fs.readFileSync(f).toString('latin1'))
				.join('\n');
			assert.ok(database.includes('[redacted]'), `${what}: the execution data n8n stored holds the (redacted) error`);
			const places = { 'execution data': JSON.stringify(result.execution), log: result.stdout + result.stderr, database };
			for (const [place, text] of Object.entries(places)) {
				for (const secret of [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, encodeURIComponent(SANDBOX_API_KEY)]) {
					assert.ok(!text.includes(secret), `${what}: a secret appears in the ${place}`);
				}
				assert.doesNotMatch(text, JWT, `${what}: an access token appears in the ${place}`);
			}
		};

		before(
			async () => {
				state.sandbox = await startSandbox({ port: 0 });
				state.foreign = await startForeignOrigin();
				state.instance = await createInstance(version, { name: 'edges', log });
				await state.instance.importCredentials([
					sandboxCredential(state.sandbox.baseUrl),
					{ ...sandboxCredential(state.sandbox.baseUrl.replace('127.0.0.1', 'localhost')), ...BY_NAME },
				]);
				await state.instance.importWorkflows(Object.values(WORKFLOWS));
			},
			{ timeout: 30 * 60 * 1000 },
		);

		after(async () => {
			if (state.instance) await state.instance.destroy();
			if (state.sandbox) await state.sandbox.close();
			if (state.foreign) await state.foreign.close();
		});

		it('an /auth 400 that echoes Api-Key and Customer-Id: redacted everywhere, at debug log level', async () => {
			const result = await run(WORKFLOWS.authEcho, [{ route: AUTH, status: 400, echoHeaders: true }]);
			assert.match(result.errorMessage, /The token exchange failed with HTTP 400: Request rejected \(HTTP 400\); headers: api-key=\[redacted\] customer-id=\[redacted\]/);
			assertNoSecrets(result, '/auth echo');
		});

		it('an operation 401 (twice) that echoes the bearer token: redacted everywhere', async () => {
			const result = await run(WORKFLOWS.opEcho, [{ route: AML, status: 401, echoHeaders: true, count: 2 }]);
			assert.match(result.errorMessage, /Check Individual failed with HTTP 401: .*authorization=Bearer \[redacted\]/);
			assert.equal(await count(AUTH), 2, 'the 401 renewed the token once');
			assertNoSecrets(result, 'operation echo');
		});

		it('AML answered 200 with an HTML page: an error naming what arrived, never "no hit"', async () => {
			const result = await run(WORKFLOWS.html, [{ route: AML, status: 200, raw: '<html><body>Maintenance</body></html>' }]);
			assert.match(result.errorMessage, /Check Individual got an answer that is not a result \(a non-empty JSON object without an error\) \(HTTP 200\): text\/html, starting "<html>/);
			assert.equal(nodeOutput(result, 'Screen'), undefined, 'no screening result was output');
		});

		it('an API that never answers fails the item after the short timeout, tried twice', async () => {
			const result = await run(WORKFLOWS.hang, [{ route: AML, hang: true, count: 5 }]);
			assert.match(result.errorMessage, /could not get an answer from the API .*no answer within the timeout of 1 s/);
			assert.equal(await count(AML), 2);
		});

		/** A Location on the other origin whose path and query must never be shown. */
		const elsewhere = () => `${state.foreign.origin}/steal/auth?token=query-secret`;

		it('/auth answered 307 to another origin: that origin receives nothing, the error names status and origin only', async () => {
			state.foreign.requests.length = 0;
			const result = await run(WORKFLOWS.redirect, [{ route: AUTH, status: 307, location: elsewhere() }]);
			assert.deepEqual(state.foreign.requests, [], 'requests that reached the other origin');
			assert.equal(
				result.errorMessage,
				`Check Individual failed: The token exchange got a redirect (HTTP 307 to ${state.foreign.origin}), which is not followed: the key was not sent there. Check the base URL of the credential's environment: an old address or a proxy may redirect`,
			);
			assert.doesNotMatch(JSON.stringify(result.execution), /steal|query-secret/);
			assert.equal(await count(AML), 0);
			assertNoSecrets(result, '/auth redirect');
		});

		it('an operation answered 307 to another origin: the token goes nowhere, the read is sent once', async () => {
			state.foreign.requests.length = 0;
			const result = await run(WORKFLOWS.redirect, [{ route: AML, status: 307, location: elsewhere() }]);
			assert.deepEqual(state.foreign.requests, [], 'requests that reached the other origin');
			assert.equal(result.errorMessage, `Check Individual got a redirect (HTTP 307 to ${state.foreign.origin}), which is not followed`);
			assert.doesNotMatch(JSON.stringify(result.execution), /steal|query-secret/);
			assert.equal(await count(AML), 1);
		});

		it('a deposit answered 308 to another origin: sent once, nothing reaches that origin, the error says it may have been carried out', async () => {
			state.foreign.requests.length = 0;
			const result = await run(WORKFLOWS.depositRedirect, [{ route: DEPOSIT, status: 308, location: elsewhere() }]);
			assert.deepEqual(state.foreign.requests, []);
			assert.equal(result.errorMessage, `Challenge Deposit got a redirect (HTTP 308 to ${state.foreign.origin}), which is not followed`);
			assert.match(JSON.stringify(nodeError(result, 'Deposit')), /may have received and carried out/);
			assert.equal(await count(DEPOSIT), 1);
		});

		it('an answer that trickles one byte every 200 ms ends with the deadline error (Timeout 1 s), tried twice', async () => {
			const result = await run(WORKFLOWS.trickle, [{ route: AML, status: 200, trickleMs: 200, count: 5 }]);
			assert.match(result.errorMessage, /could not get an answer from the API .*\(no complete answer within the timeout of 1 s\)$/);
			assert.equal(await count(AML), 2);
		});

		it('an answer over the size cap (65 MiB, chunked) is an error naming the cap, sent once', async () => {
			const result = await run(WORKFLOWS.oversize, [{ route: AML, status: 200, bytes: 65 * 1024 * 1024, chunked: true }]);
			assert.equal(result.errorMessage, 'Check Individual got an answer larger than the limit of 64 MiB (HTTP 200), which was not read further');
			assert.equal(await count(AML), 1);
		});

		if (version === 'v2') {
			/** Runs the SSRF workflow with SSRF protection on and `allow`, against a reset emulator. */
			const runProtected = async (allow = {}) => {
				await control('POST', 'reset');
				return await state.instance.execute(WORKFLOWS.ssrf.id, { env: { ...SSRF_PROTECTED, ...allow } });
			};

			it('SSRF protection on: a loopback base URL is refused before anything reaches it', async () => {
				const result = await runProtected();
				assert.equal(result.ok, false, 'the workflow failed');
				log(`blocked: ${result.errorMessage}`);
				assert.match(String(result.errorMessage), /could not reach|blocked|SSRF|not allowed/i);
				assert.equal((await control('GET', 'stats')).total, 0, 'no request reached the emulator, not even the token exchange');
			});

			for (const [label, allow] of [
				['the address range (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32)', { N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32,::1/128' }],
				['the host name (N8N_SSRF_ALLOWED_HOSTNAMES=localhost)', { N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' }],
			]) {
				it(`SSRF protection on: runs once ${label} is allowed`, async () => {
					const result = await runProtected(allow);
					assert.ok(result.ok, `the workflow ran: ${result.errorMessage}`);
					assert.equal(nodeOutput(result, 'Screen')[0].screeningSummary.isHit, true);
				});
			}
		}
	});
}

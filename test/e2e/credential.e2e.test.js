'use strict';
// The credential's Test button as n8n itself runs it (POST /rest/credentials/test, n8n's own
// CredentialsTester and CredentialsHelper), in n8n 2.x and 1.x, against the emulator. README,
// "Credentials": the key shown is exchanged every time; a wrong key or customer ID and an unreachable
// URL are said in words. An /auth answered 307 to another origin is refused; that origin receives
// nothing (n8n 1.123 words it itself). The base URL rules (https, http only to
// loopback) and the token going only to the base URL's origin (HTTP Request node).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const { createInstance } = require('./lib/instance');
const { emulatorControl, e2eVersions, freePort, waitUntil } = require('./lib/util');
const { startForeignOrigin } = require('./lib/foreign-origin');
const { chain, manualTrigger, node, sandboxCredential, SANDBOX_CREDENTIAL, SANDBOX_CREDENTIAL_REF } = require('./lib/workflows');
const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');

const VERSIONS = e2eVersions();
const TYPE = 'verificationServicesApi';
const WRONG = '00000000-0000-4000-8000-000000000000';
const UNREACHABLE = 'http://127.0.0.1:9/api/services';

/** An address of this machine that is not loopback: a request to it leaves through a network interface. */
function networkAddress() {
	const found = Object.values(require('node:os').networkInterfaces())
		.flat()
		.find((a) => a && a.family === 'IPv4' && !a.internal);
	return found ? found.address : '192.0.2.1';
}

/** A free port that another server holds until n8n has said it is in use (lib/instance.js startServer). */
async function heldPort(instance) {
	const port = await freePort();
	const holder = net.createServer().listen(port, '127.0.0.1');
	const log = instance.serverLogFile(port);
	const taken = () => fs.existsSync(log) && /already in use/.test(fs.readFileSync(log, 'utf8'));
	waitUntil('n8n to find its port taken', taken, { timeoutMs: 120000 }).then(() => holder.close(), () => holder.close());
	return port;
}

/** An HTTP Request node that GETs `url` with the package's credential (predefined credential type). */
const httpRequestWorkflow = (url) =>
	chain('e2e: HTTP Request node with the credential', [
		manualTrigger(),
		node({
			name: 'Get Countries',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: { method: 'GET', url, authentication: 'predefinedCredentialType', nodeCredentialType: TYPE, options: {} },
			credentials: SANDBOX_CREDENTIAL_REF,
		}),
	]);

for (const version of VERSIONS) {
	describe(`n8n ${version}: the credential's Test button, and its token in the HTTP Request node`, { timeout: 15 * 60 * 1000 }, () => {
		let n8n;
		let server;
		let sandbox;
		/** The emulator on every interface, reached at a network address. */
		let remote;
		let credentialId;
		/** Another origin a redirect points at. */
		let foreign;
		/** Another origin (another port) an HTTP Request node is pointed at: it must never receive the token. */
		let elsewhere;
		/** The HTTP Request workflows to the base URL's origin and to `elsewhere`. */
		let ownId;
		let otherId;

		before(async () => {
			sandbox = await startSandbox({ port: 0 });
			foreign = await startForeignOrigin();
			remote = await startSandbox({ port: 0, host: '0.0.0.0' });
			elsewhere = await startSandbox({ port: 0 });
			n8n = await createInstance(version, { name: 'credential' });
			// The harness's own promise, in one version to spend one n8n start: a port lost to another process is not a failure.
			server = await n8n.startServer({ port: version === 'v2' ? await heldPort(n8n) : undefined });
			await server.setupOwner();
			({
				credentialIds: [credentialId],
				workflowIds: [ownId, otherId],
			} = await server.createCredentialsAndWorkflows({
				credentials: [sandboxCredential(sandbox.baseUrl)],
				workflows: [httpRequestWorkflow(`${sandbox.baseUrl}/KYB/countries`), httpRequestWorkflow(`${elsewhere.baseUrl}/KYB/countries`)],
			}));
		});

		after(async () => {
			await server?.stop();
			await n8n?.destroy();
			await sandbox?.close();
			await foreign?.close();
			await remote?.close();
			await elsewhere?.close();
		});

		const right = (extra = {}) => ({
			environment: 'sandbox',
			sandboxBaseUrl: sandbox.baseUrl,
			apiKey: SANDBOX_API_KEY,
			customerId: SANDBOX_CUSTOMER_ID,
			accessToken: '',
			...extra,
		});
		const testWith = async (data) => await server.testCredential({ id: credentialId, name: SANDBOX_CREDENTIAL.name, type: TYPE, data });
		/** Runs a workflow as the editor's "Execute workflow" does: { ok, errorMessage }. */
		const run = async (id) => {
			const { status, data } = await server.runWorkflow(id, { trigger: 'Manual Trigger' });
			const error = data.resultData.error;
			return { ok: status === 'success' && !error, errorMessage: error?.message };
		};

		if (version === 'v2') {
			test('n8n, whose port another process held when it bound it, started again on that port', () => {
				assert.match(server.readLog(), /port \d+ is already in use/);
			});
		}

		test('the right key passes, a wrong key or customer ID is refused in words', async () => {
			assert.equal((await testWith(right())).status, 'OK');
			for (const wrong of [{ apiKey: WRONG }, { customerId: WRONG }]) {
				const result = await testWith(right(wrong));
				assert.equal(result.status, 'Error');
				assert.match(result.message, /rejected the API key or the customer ID \(HTTP 401\): check both in the credential/);
				assert.ok(!result.message.includes(SANDBOX_API_KEY) && !result.message.includes(SANDBOX_CUSTOMER_ID));
			}
		});

		test('an unreachable URL: the URL and what to check', async () => {
			const result = await testWith(right({ sandboxBaseUrl: UNREACHABLE }));
			assert.equal(result.status, 'Error');
			assert.match(result.message, /Could not reach the verification API at http:\/\/127\.0\.0\.1:9\/api\/services .*check the base URL/);
		});

		test('http:// to a network host: the rule in words, nothing sent (the key never in clear)', async () => {
			await emulatorControl(remote.url, 'POST', 'reset');
			const sandboxBaseUrl = `http://${networkAddress()}:${new URL(remote.url).port}/api/services`;
			const result = await testWith(right({ sandboxBaseUrl }));
			assert.equal(result.status, 'Error');
			assert.match(result.message, /Sandbox Base URL must use https:\/\/ for .*http:\/\/ would send the API key and the token unencrypted/);
			assert.equal((await emulatorControl(remote.url, 'GET', 'stats')).total, 0);
		});

		test('/auth answered 307 to another origin is refused, that origin receives nothing', async () => {
			const { origin, requests } = foreign;
			requests.length = 0;
			await emulatorControl(sandbox.url, 'POST', 'config', { failures: [{ route: 'POST /auth', status: 307, location: `${origin}/auth?token=query-secret`, count: 5 }] });
			try {
				const result = await testWith(right());
				assert.deepEqual(requests, [], 'requests that reached the other origin');
				assert.equal(result.status, 'Error');
				// The test request's status rule words it: n8n's process holds this account's token from the
				// tests before, so preAuthentication sends nothing (n8n 1.123 does not apply that rule: its own words).
				const words = version === 'v1' ? 'Request failed with status code 307' : 'The API answered /auth with a redirect (HTTP 307), which is not followed, so the key was not sent on';
				assert.ok(result.message.startsWith(words), result.message);
				assert.doesNotMatch(result.message, /query-secret/);
			} finally {
				await emulatorControl(sandbox.url, 'POST', 'reset');
			}
		});

		test("the HTTP Request node: a URL of another origin is refused, the token never sent there; the base URL's own origin works", async () => {
			const refused = await run(otherId);
			assert.match(String(refused.errorMessage), /sends its token only to its base URL's origin \(http:\/\/127\.0\.0\.1:\d+\), not to http:\/\/127\.0\.0\.1:\d+/);
			const { total } = await emulatorControl(elsewhere.url, 'GET', 'stats');
			assert.equal(total, 0, 'the other origin received nothing');

			const allowed = await run(ownId);
			assert.equal(allowed.ok, true, String(allowed.errorMessage));
			const { counts } = await emulatorControl(sandbox.url, 'GET', 'stats');
			assert.equal(counts['GET /KYB/countries'], 1);
		});
	});
}

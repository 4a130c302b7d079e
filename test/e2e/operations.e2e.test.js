'use strict';
// End-to-end suite of the shipped examples: the example workflows, each run by a real n8n (1.123 and
// 2.40) against the sandbox emulator started in this process; the KYB example
// runs twice, against an emulator playing g2 and one playing g3. The examples as saved with a release
// are golden workflows too (golden.e2e.test.js: requests and every node's output compared as recorded),
// as is every operation of every action node; here each current example must run to the end, and the
// KYB example's results are checked against g3. The answers of either API generation are read by the
// node tests (test/nodes, against the emulator playing g2 and g3).
// Per version every workflow runs in one `n8n execute-batch` (lib/batch.js). A value from an
// expression refused before sending, in both versions: the golden workflow address-refused.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, emulatorControl, e2eVersions } = require('./lib/util');
const { runBatch } = require('./lib/batch');
const { sandboxCredential } = require('./lib/workflows');
const { sandboxCredentials } = require('./lib/example-server');

const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');
const VERSIONS = e2eVersions();
const log = (message) => defaultLog(`[operations] ${message}`);

// ---------------------------------------------------------------------------------------------
// What is run

/** The same credential against the emulator that plays the newer API generation. */
const G3_CREDENTIAL_REF = { id: 'verification-sandbox-g3', name: 'Verification Services (sandbox emulator, g3)' };

/** The example workflows that start with a Manual Trigger, without AI agents (phone-otp and qes-onboarding start from webhooks: onboarding.e2e.test.js; the agent example: agent.e2e.test.js) or a Postgres server. */
function loadExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json') && !f.startsWith('credentials'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }))
		.filter(({ workflow }) => workflow.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger'))
		// Agent examples need the scripted test model: agent.e2e.test.js runs them.
		.filter(({ workflow }) => !workflow.nodes.some((n) => n.type.startsWith('@n8n/n8n-nodes-langchain.')))
		// The customer book needs a Postgres server: queue.e2e.test.js runs it (test/e2e/lib/customer-book.js).
		.filter(({ workflow }) => !workflow.nodes.some((n) => n.type === 'n8n-nodes-base.postgres'));
}

const KYB_EXAMPLE_G3_ID = 'exKybOnboardG3x1';

/** The KYB example as a user of the newer API generation runs it: the same workflow with the g3 credential. */
function kybExampleAgainstG3(examples) {
	const { workflow } = examples.find((e) => e.file === 'kyb-onboarding.json');
	const nodes = workflow.nodes.map((n) => (n.credentials ? { ...n, credentials: { verificationServicesApi: G3_CREDENTIAL_REF } } : n));
	return { ...workflow, id: KYB_EXAMPLE_G3_ID, name: `${workflow.name} (API g3)`, nodes };
}

// ---------------------------------------------------------------------------------------------
// Running

for (const version of VERSIONS) {
	describe(`n8n ${version}: the examples against the sandbox emulator`, () => {
		const examples = loadExamples();
		const state = {
			sandbox: null,
			/** The emulator playing the newer generation (g3); `sandbox` plays g2 and serves the examples. */
			sandboxG3: null,
			instance: null,
			results: new Map(),
		};
		const control = (generation, controlPath) => emulatorControl((generation === 'g3' ? state.sandboxG3 : state.sandbox).url, 'GET', controlPath);
		const stats = async (generation = 'g2') => await control(generation, 'stats');

		/** The run of a workflow, failing the test with n8n's error when it did not succeed. */
		const succeeded = (id) => {
			const result = state.results.get(id);
			assert.ok(result, `workflow ${id} was run`);
			assert.ok(result.ok, `workflow ${id} failed: ${result.errorMessage ?? '(no error message)'}`);
			return result.execution;
		};
		const reader = (execution, generation) => {
			/** A node's items (`json`: their json only), failing the test when it produced none. */
			const output = (node, json) => {
				const items = nodeOutput(execution, node, { json });
				assert.ok(items, `node "${node}" produced output`);
				return items;
			};
			return { out: (node) => output(node, true), items: (node) => output(node, false), requests: (route) => control(generation, `requests?route=${encodeURIComponent(route)}`) };
		};

		before(
			async () => {
				state.sandbox = await startSandbox({ port: 0 });
				state.sandboxG3 = await startSandbox({ port: 0, config: { generation: 'g3' } });
				const instance = (state.instance = await createInstance(version, { name: 'operations', log }));
				await instance.importCredentials([...sandboxCredentials(state.sandbox.baseUrl), { ...sandboxCredential(state.sandboxG3.baseUrl), ...G3_CREDENTIAL_REF }]);
				const succeeding = [...examples.map((e) => e.workflow), kybExampleAgainstG3(examples)];
				await instance.importWorkflows(succeeding);
				const run = await runBatch(instance, succeeding.map((w) => w.id));
				state.results = run.results;
				log(`${version}: ${succeeding.length} workflows in one execute-batch took ${(run.durationMs / 1000).toFixed(1)} s`);
			},
			{ timeout: 60 * 60 * 1000 },
		);

		after(async () => {
			if (state.instance) await state.instance.destroy();
			if (state.sandbox) await state.sandbox.close();
			if (state.sandboxG3) await state.sandboxG3.close();
		});

		// ---- the examples ----------------------------------------------------------------------

		it('every example that starts with a Manual Trigger runs to the end', () => {
			for (const { workflow } of examples) succeeded(workflow.id);
		});

		it('examples/kyb-onboarding.json against the API g3: the company summary names the officer on AML lists and the lists; every register document is fetched as a PDF', async () => {
			await checkKybExample(reader(succeeded(KYB_EXAMPLE_G3_ID), 'g3'));
		});

		/** The KYB example's results (against g2 the golden workflow example-kyb-onboarding compares them as recorded). */
		async function checkKybExample(run) {
			assert.equal(run.out('Search Companies').length, 1);
			assert.equal(run.out('Split Out Officers').length, 3);
			assert.equal(run.out('Screen Officer').length, 3);
			assert.deepEqual(run.out('Officer Clear').length, 2);
			const summaries = run.out('Company AML Summary');
			assert.equal(summaries.length, 1, 'one summary item per company');
			const [summary] = summaries;
			assert.equal(summary.companyName, 'Globex Corporation');
			assert.equal(summary.officersOnLists, 1);
			assert.deepEqual(summary.hits, [
				'Max Mixed (Board Member): SANCTION (OFAC-SDN), PEP (PEP-GLOBAL), CRIMINAL (EUROPOL-MOST-WANTED)',
			]);
			assert.match(summary.summary, /^Globex Corporation: 1 officer\(s\) on AML lists\. Max Mixed/);
			const checks = (await run.requests('POST /aml/checkIndividual')).map((r) => r.body);
			assert.ok(
				checks.some((b) => b.name === 'Max Mixed' && b.dob === '1975/07/07'),
				'the officer\'s ISO date of birth was sent as yyyy/mm/dd',
			);
			const [details] = (await run.requests('POST /kyb/company/details')).filter((r) => r.body.companyId === 'US-DE-5551234');
			assert.deepEqual(details.body.include, { documents: true, officers: true });
			const documents = run.items('Retrieve Document');
			assert.deepEqual(
				documents.map((d) => [d.json.linkToken, d.json.fileName, d.binary && d.binary.data.mimeType]),
				[
					['lt-US-DE-5551234-register-extract', 'US-DE-5551234-DOC-1.pdf', 'application/pdf'],
					['lt-US-DE-5551234-articles', 'US-DE-5551234-DOC-2.pdf', 'application/pdf'],
				],
			);
		}

		it('examples/several-accounts.json: each customer screened under its client\'s account, which the evidence tells apart', async () => {
			const run = reader(succeeded('exSeveralAccts01'), 'g2');
			const results = run.out('Result per Customer');
			const accountOf = { own: 'sandbox', 'client-a': 'client-a', 'client-b': 'client-b' };
			const screened = (await run.requests('POST /aml/checkIndividual')).filter((r) => results.some((x) => x.customer === r.body.name));
			assert.deepEqual(
				screened.map((r) => r.account).sort(),
				results.map((x) => accountOf[x.clientId]).sort(),
			);
			const fingerprints = new Map(results.map((x) => [x.clientId, x.account]));
			assert.equal(new Set(fingerprints.values()).size, 3);
			for (const x of results) assert.equal(x.account, fingerprints.get(x.clientId));
			assert.deepEqual(results.map((x) => [x.customer, x.isHit]).filter(([, hit]) => hit).map(([name]) => name).sort(), ['Carl Criminal', 'Paula P.', 'Viktor S.']);
		});

		// ---- token exchanges -------------------------------------------------------------------

		it('POST /auth once per account in the one n8n process', async () => {
			for (const generation of ['g2', 'g3']) {
				const { counts } = await stats(generation);
				const accounts = (await control(generation, `requests?route=${encodeURIComponent('POST /auth')}`)).map((r) => r.account);
				log(`${version}: ${generation} POST /auth ${counts['POST /auth'] ?? 0} time(s); all API calls: ${JSON.stringify(counts)}`);
				// The several-accounts example adds its two client accounts to the sandbox's own, against g2.
				const expected = generation === 'g2' ? ['client-a', 'client-b', 'sandbox'] : ['sandbox'];
				assert.deepEqual(accounts.sort(), expected, 'the one n8n process (the execute-batch) exchanged each key for a token once');
			}
		});
	});
}

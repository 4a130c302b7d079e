'use strict';
// Several client accounts in one workflow, in real n8n 2.x and 1.x: one credential whose API Key and
// Customer ID are expressions of the item (`{{ $json.account.apiKey }}`), three accounts in the
// emulator (which records the account of the token every request carries). The action node sends each
// of 1,000 mixed items under its own account with one /auth per account; n8n's HTTP Request node with
// the credential sends none under another account, and leaves the credential's expressions as they
// are; a wrong key of one account fails that account's items only.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, emulatorControl, emulatorRequests, e2eVersions } = require('./lib/util');
const { action, chain, manualTrigger, node } = require('./lib/workflows');

const VERSIONS = e2eVersions();
const log = (message) => defaultLog(`[several-accounts] ${message}`);
const AML = 'POST /aml/checkIndividual';

const ACCOUNTS = {
	sandbox: { apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID },
	north: { apiKey: 'north-key-e2e-0c41', customerId: 'north-customer-e2e-8d2f' },
	south: { apiKey: 'south-key-e2e-71aa', customerId: 'south-customer-e2e-3be9' },
};
const NAMES = Object.keys(ACCOUNTS);
const SECRETS = Object.values(ACCOUNTS).flatMap((a) => [a.apiKey, a.customerId]);

const CREDENTIAL = { id: 'e2eSeveralAccts1', name: 'Verification Services (an account per item)', type: 'verificationServicesApi' };
const CREDENTIAL_REF = { verificationServicesApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
/** A credential with a default account for items that name none. */
const FALLBACK = { id: 'e2eSevAcctFallbk', name: 'Verification Services (an account per item, or the default)', type: 'verificationServicesApi' };

/** `count` customers, the accounts taking turns (a seeded shuffle would prove no more: each item is checked). */
const customers = (count, change = {}) =>
	Array.from({ length: count }, (_, i) => {
		const name = NAMES[i % NAMES.length];
		return { name: `${name} customer ${i}`, account: { ...ACCOUNTS[name], ...change[name] } };
	});

/** Manual Trigger -> the customers as items (a Set of raw JSON, then Split Out) -> `tested`. */
const customerWorkflow = (id, list, tested) =>
	chain(`e2e: ${id}`, [
		manualTrigger('Start'),
		node({ name: 'Customers', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'raw', jsonOutput: JSON.stringify({ customers: list }), options: {} } }),
		node({ name: 'One per Customer', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'customers', options: {} } }),
		tested,
	], { id });

const screen = (extra = {}, credential = CREDENTIAL) =>
	action({ name: 'Screen', resource: 'aml', parameters: { operation: 'checkIndividual', name: '={{ $json.name }}', options: {} }, credentials: { verificationServicesApi: { id: credential.id, name: credential.name } }, ...extra });

/** n8n's HTTP Request node posting each customer's name with the credential (Predefined Credential Type). */
const httpScreen = (baseUrl) =>
	node({
		name: 'Screen by HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${baseUrl}/aml/checkIndividual`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL.type,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ name: $json.name }) }}',
			options: {},
		},
		credentials: CREDENTIAL_REF,
	});

const BOOK = 'e2eSevAcctBook01';
const HTTP = 'e2eSevAcctHttp01';
const WRONG = 'e2eSevAcctWrong1';
const DEFAULTED = 'e2eSevAcctDeflt1';

for (const version of VERSIONS) {
	describe(`n8n ${version}: a credential resolved per item sends each item under its own account`, { timeout: 20 * 60 * 1000 }, () => {
		let sandbox;
		let instance;

		before(async () => {
			const accounts = ['north', 'south'].map((name) => ({ name, ...ACCOUNTS[name] }));
			sandbox = await startSandbox({ port: 0, config: { accounts } });
			instance = await createInstance(version, { name: 'several-accounts', log });
			await instance.importCredentials([
				{ ...CREDENTIAL, data: { environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl, apiKey: '={{ $json.account.apiKey }}', customerId: '={{ $json.account.customerId }}' } },
				{ ...FALLBACK, data: { environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl, apiKey: `={{ $json.account?.apiKey ?? '${SANDBOX_API_KEY}' }}`, customerId: `={{ $json.account?.customerId ?? '${SANDBOX_CUSTOMER_ID}' }}` } },
			]);
			await instance.importWorkflows([
				customerWorkflow(BOOK, customers(1000), screen()),
				customerWorkflow(HTTP, customers(30), httpScreen(sandbox.baseUrl)),
				customerWorkflow(WRONG, customers(30, { north: { apiKey: 'north-key-wrong' } }), screen({ onError: 'continueRegularOutput' })),
				customerWorkflow(DEFAULTED, customers(30).map((c) => (c.name.startsWith('sandbox') ? { name: c.name } : c)), screen({}, FALLBACK)),
			]);
		});

		after(async () => {
			await instance?.destroy();
			await sandbox?.close();
		});

		/** Runs a workflow against a reset emulator; returns the run and what the emulator received. */
		const execute = async (id) => {
			await emulatorControl(sandbox.url, 'POST', 'reset');
			const run = await instance.execute(id, { timeoutMs: 10 * 60 * 1000 });
			const screened = (await emulatorRequests(sandbox.url, AML)).map((r) => [r.body.name, r.account]);
			const auth = (await emulatorRequests(sandbox.url, 'POST /auth')).map((r) => r.account);
			return { run, screened, auth };
		};

		/** The customers screened under another account than their own (the first word of their name). */
		const crossed = (screened) => screened.filter(([name, account]) => name.split(' ')[0] !== account);

		it('the action node: 1,000 items over three accounts, every request under its own account, one /auth per account, evidence tells the accounts apart', async () => {
			const { run, screened, auth } = await execute(BOOK);
			assert.ok(run.ok, run.errorMessage);
			assert.equal(screened.length, 1000);
			assert.deepEqual(crossed(screened), []);
			assert.deepEqual(auth.sort(), ['north', 'sandbox', 'south']);
			const output = nodeOutput(run, 'Screen');
			assert.equal(output.length, 1000);
			const accountOf = new Map(output.map((item, i) => [NAMES[i % NAMES.length], item.evidence.account]));
			for (const [i, item] of output.entries()) assert.equal(item.evidence.account, accountOf.get(NAMES[i % NAMES.length]));
			assert.equal(new Set(accountOf.values()).size, 3);
			for (const fingerprint of accountOf.values()) assert.match(fingerprint, /^[0-9a-f]{16}$/);
			const text = JSON.stringify(output);
			for (const secret of SECRETS) assert.ok(!text.includes(secret), 'no key or customer ID in the output');
			log(`${version}: 1,000 items over 3 accounts in ${(run.durationMs / 1000).toFixed(1)} s (the n8n process included)`);
		});

		it("the HTTP Request node with the credential: twice 30 items, none under another account, one /auth per account per process", async () => {
			for (let round = 1; round <= 2; round++) {
				const { run, screened, auth } = await execute(HTTP);
				assert.ok(run.ok, `round ${round}: ${run.errorMessage}`);
				assert.equal(screened.length, 30, `round ${round}: each item sent once`);
				assert.deepEqual(crossed(screened), [], `round ${round}`);
				assert.deepEqual(auth.sort(), ['north', 'sandbox', 'south'], `round ${round}`);
			}
		});

		it('a default account for items that name none: the items that name one are sent under theirs, not under the first item\'s', async () => {
			const { run, screened } = await execute(DEFAULTED);
			assert.ok(run.ok, run.errorMessage);
			assert.equal(screened.length, 30);
			assert.deepEqual(crossed(screened), []);
		});

		it("one account's wrong key (after the HTTP Request runs: the credential's expressions are still its own): that account's items fail, the others answer under their own", async () => {
			const { run, screened } = await execute(WRONG);
			assert.ok(run.ok, run.errorMessage);
			const output = nodeOutput(run, 'Screen');
			assert.equal(output.length, 30);
			const failed = output.flatMap((item, i) => (item.error ? [i] : []));
			assert.deepEqual(failed, customers(30).flatMap((c, i) => (c.name.startsWith('north') ? [i] : [])));
			assert.match(output[1].error, /rejected the API key or the customer ID \(HTTP 401\)/);
			assert.equal(screened.length, 20);
			assert.deepEqual(crossed(screened), []);
			const text = JSON.stringify(output);
			for (const secret of ['north-key-wrong', ...SECRETS]) assert.ok(!text.includes(secret), 'no key or customer ID in the output');
		});
	});
}

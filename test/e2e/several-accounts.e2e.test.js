'use strict';
// Several client accounts in one workflow, in real n8n 2.x and 1.x: one credential whose API Key and
// Customer ID are expressions of the item (`{{ $json.account.apiKey }}`), three accounts in the
// emulator (which records the account of the token every request carries). The workflows run one
// after the other in one `n8n execute-batch` process: the action node sends each of 1,000 mixed items
// under its own account; n8n's HTTP Request node with the credential, twice, sends none under another
// account and leaves the credential's expressions as they are (the runs after it still resolve per
// item); a default account for items that name none; a wrong key of one account fails that account's
// items only. One /auth per account in the whole process.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { runBatch } = require('./lib/batch');
const { defaultLog, emulatorRequests, e2eVersions } = require('./lib/util');
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

/**
 * `count` customers of the workflow `tag`, the accounts taking turns; the first word of each name is
 * its account, the last the workflow that screens it.
 */
const customers = (tag, count, change = {}) =>
	Array.from({ length: count }, (_, i) => {
		const name = NAMES[i % NAMES.length];
		return { name: `${name} customer ${i} ${tag}`, account: { ...ACCOUNTS[name], ...change[name] } };
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

// The workflows, in the order the batch runs them.
const BOOK = 'e2eSevAcctBook01';
const HTTP = ['e2eSevAcctHttp01', 'e2eSevAcctHttp02'];
const WRONG = 'e2eSevAcctWrong1';
const DEFAULTED = 'e2eSevAcctDeflt1';

for (const version of VERSIONS) {
	describe(`n8n ${version}: a credential resolved per item sends each item under its own account`, { timeout: 20 * 60 * 1000 }, () => {
		let sandbox;
		let instance;
		let results;
		/** [name, account] of every screening the emulator received, the account its token was issued to. */
		let screened;
		let auth;

		before(async () => {
			const accounts = ['north', 'south'].map((name) => ({ name, ...ACCOUNTS[name] }));
			sandbox = await startSandbox({ port: 0, config: { accounts } });
			instance = await createInstance(version, { name: 'several-accounts', log });
			await instance.importCredentials([
				{ ...CREDENTIAL, data: { environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl, apiKey: '={{ $json.account.apiKey }}', customerId: '={{ $json.account.customerId }}' } },
				{ ...FALLBACK, data: { environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl, apiKey: `={{ $json.account?.apiKey ?? '${SANDBOX_API_KEY}' }}`, customerId: `={{ $json.account?.customerId ?? '${SANDBOX_CUSTOMER_ID}' }}` } },
			]);
			await instance.importWorkflows([
				customerWorkflow(BOOK, customers('book', 1000), screen()),
				...HTTP.map((id, round) => customerWorkflow(id, customers(`http${round + 1}`, 30), httpScreen(sandbox.baseUrl))),
				customerWorkflow(WRONG, customers('wrong', 30, { north: { apiKey: 'north-key-wrong' } }), screen({ onError: 'continueRegularOutput' })),
				customerWorkflow(DEFAULTED, customers('default', 30).map((c) => (c.name.startsWith('sandbox') ? { name: c.name } : c)), screen({}, FALLBACK)),
			]);
			const t0 = Date.now();
			({ results } = await runBatch(instance, [BOOK, ...HTTP, WRONG, DEFAULTED]));
			log(`${version}: ${1000 + 4 * 30} items in one execute-batch in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
			screened = (await emulatorRequests(sandbox.url, AML)).map((r) => [r.body.name, r.account]);
			auth = (await emulatorRequests(sandbox.url, 'POST /auth')).map((r) => r.account);
		});

		after(async () => {
			await instance?.destroy();
			await sandbox?.close();
		});

		/** A workflow's run, failing the test with n8n's error when it did not succeed. */
		const succeeded = (id) => {
			const result = results.get(id);
			assert.ok(result.ok, `${id}: ${result.errorMessage}`);
			return result.execution;
		};
		/** What the emulator screened for workflow `tag`, and which of it went under another account than the customer's own. */
		const of = (tag) => screened.filter(([name]) => name.endsWith(` ${tag}`));
		const crossed = (list) => list.filter(([name, account]) => name.split(' ')[0] !== account);

		it('the action node: 1,000 items over three accounts, every request under its own account, evidence tells the accounts apart', () => {
			const output = nodeOutput(succeeded(BOOK), 'Screen');
			assert.equal(of('book').length, 1000);
			assert.deepEqual(crossed(of('book')), []);
			assert.equal(output.length, 1000);
			const accountOf = new Map(output.map((item, i) => [NAMES[i % NAMES.length], item.evidence.account]));
			for (const [i, item] of output.entries()) assert.equal(item.evidence.account, accountOf.get(NAMES[i % NAMES.length]));
			assert.equal(new Set(accountOf.values()).size, 3);
			for (const fingerprint of accountOf.values()) assert.match(fingerprint, /^[0-9a-f]{16}$/);
			const text = JSON.stringify(output);
			for (const secret of SECRETS) assert.ok(!text.includes(secret), 'no key or customer ID in the output');
		});

		it('one token exchange per account in the whole process (the node and the HTTP Request node share them); the wrong key refused once', () => {
			assert.deepEqual(auth.filter(Boolean).sort(), ['north', 'sandbox', 'south']);
			assert.deepEqual(auth.filter((account) => !account), [null], 'one refused exchange for the wrong key');
		});

		it('the HTTP Request node with the credential, twice 30 items: none under another account', () => {
			for (const [round, id] of HTTP.entries()) {
				succeeded(id);
				assert.equal(of(`http${round + 1}`).length, 30, `round ${round + 1}: each item sent once`);
				assert.deepEqual(crossed(of(`http${round + 1}`)), [], `round ${round + 1}`);
			}
		});

		it("one account's wrong key, after the HTTP Request runs (the credential's expressions are still its own): that account's items fail, the others answer under their own", () => {
			const output = nodeOutput(succeeded(WRONG), 'Screen');
			assert.equal(output.length, 30);
			const failed = output.flatMap((item, i) => (item.error ? [i] : []));
			assert.deepEqual(failed, customers('wrong', 30).flatMap((c, i) => (c.name.startsWith('north') ? [i] : [])));
			assert.match(output[1].error, /rejected the API key or the customer ID \(HTTP 401\)/);
			assert.equal(of('wrong').length, 20);
			assert.deepEqual(crossed(of('wrong')), []);
			const text = JSON.stringify(output);
			for (const secret of ['north-key-wrong', ...SECRETS]) assert.ok(!text.includes(secret), 'no key or customer ID in the output');
		});

		it("a default account for items that name none: the items that name one are sent under theirs, not under the first item's", () => {
			succeeded(DEFAULTED);
			assert.equal(of('default').length, 30);
			assert.deepEqual(crossed(of('default')), []);
		});
	});
}

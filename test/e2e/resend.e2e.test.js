'use strict';
// Retry On Fail never sends money or a message twice, inside a real n8n (2.40 and 1.123). n8n re-runs
// the whole node when it throws, and also when its first output item carries json.error (n8n-core
// WorkflowExecute, both versions): Challenge Deposit, Initiate Payment, Start Hosted Journey and Send
// OTP, 5 items each, Retry On Fail with 3 tries, with On Error "Stop Workflow", "Continue" and
// "Continue (using error output)", and Continue On Fail with an invalid first item. The assertion is
// the count of requests per item the emulator received: exactly 1 for every item that reached it.
//
// Every execution runs through one server, as the editor's "Execute workflow" does. First, while no token
// is cached, one stopped while a deposit is on the wire (n8n saves no node data of a stopped execution:
// the receipt is in n8n's log); then one per Stop Workflow case, and one for every Continue case (the
// emulator fails items by their body, so the branches' order does not matter).

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox } = require('../../sandbox/server');
const { createInstance, nodeOutput, nodeError } = require('./lib/instance');
const { defaultLog, emulatorControl, emulatorRequests, e2eVersions, waitUntil } = require('./lib/util');
const { action, perRefWorkflow, sandboxCredential, SANDBOX_CREDENTIAL_REF: CREDENTIAL, VALID_DEPOSIT } = require('./lib/workflows');

const VERSIONS = e2eVersions();

const REFS = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
/** n8n's Retry On Fail as the editor saves it: 3 tries (n8n waits 1 s between them when 0 is given). */
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

const log = (message) => defaultLog(`[resend] ${message}`);

/** `'<tag>-' + $json.refs`: the value that tells each case's and item's requests apart. */
const tagged = (tag) => `={{ '${tag}-' + $json.refs }}`;
/** The same, but for p-1 a value the field's rule refuses (the invalid first item). */
const taggedInvalidFirst = (tag, invalid) => `={{ $json.refs === 'p-1' ? '${invalid}' : '${tag}-' + $json.refs }}`;

/**
 * The four operations: their resource, route, the body path that carries the item's tag, the output
 * field that holds the receipt, and their parameters with the tag expression `value` in that field.
 */
const OPERATIONS = {
	deposit: {
		label: 'Challenge Deposit',
		resource: 'payments',
		route: 'POST /payments/challenge-deposit',
		bodyPath: 'description',
		receipt: (json) => json.transactionId,
		parameters: (value) => ({ ...VALID_DEPOSIT, description: value, options: {} }),
		invalid: 'not valid!',
	},
	payment: {
		label: 'Initiate Payment',
		resource: 'payments',
		route: 'POST /payments/initiate',
		bodyPath: 'referenceId',
		receipt: (json) => json.requestId,
		parameters: (value) => ({
			operation: 'initiatePayment',
			referenceId: value,
			transactionDescription: 'Order',
			returnUrl: 'https://shop.example.com/checkout/done',
			IBAN: 'DE89370400440532013000',
			currency: 'EUR',
			amount: '19.99',
			options: {},
		}),
	},
	journey: {
		label: 'Start Hosted Journey',
		resource: 'document',
		route: 'POST /sdk/universal/handshake',
		bodyPath: 'validationData.fullName',
		receipt: (json) => json.transactionId ?? json.transaction_id,
		parameters: (value) => ({ operation: 'startHostedJourney', processName: 'onboarding', additionalFields: { fullName: value }, options: {} }),
	},
	otp: {
		label: 'Send OTP',
		resource: 'phone',
		route: 'POST /phone-service/verification',
		bodyPath: 'externalId',
		receipt: (json) => json.referenceId,
		parameters: (value, phoneNumber = '436601234567') => ({ operation: 'sendOtp', method: 'sms', phoneNumber, additionalFields: { externalId: value }, options: {} }),
	},
};

/** A node of `op` for one case: its name is "<Label> <tag>", its tag in every request it sends. */
function caseNode(key, tag, onError, parameters) {
	const op = OPERATIONS[key];
	return action({
		name: `${op.label} ${tag}`,
		resource: op.resource,
		parameters: parameters ?? op.parameters(tagged(tag)),
		credentials: CREDENTIAL,
		onError,
		...RETRY,
	});
}

const workflow = (id, tested) => perRefWorkflow(id, REFS, tested);

const continueNodes = [
	...Object.keys(OPERATIONS).flatMap((key) => [caseNode(key, 'cont', 'continueRegularOutput'), caseNode(key, 'errout', 'continueErrorOutput')]),
	caseNode('deposit', 'inv', 'continueRegularOutput', OPERATIONS.deposit.parameters(taggedInvalidFirst('inv', OPERATIONS.deposit.invalid))),
	caseNode('otp', 'inv', 'continueRegularOutput', OPERATIONS.otp.parameters(tagged('inv'), "={{ $json.refs === 'p-1' ? '12' : '436601234567' }}")),
];
/** 5 deposits one at a time, no Retry On Fail: stopped while the first is on the wire. */
const cancelDeposit = action({
	name: 'Deposit cancel',
	resource: 'payments',
	parameters: { ...OPERATIONS.deposit.parameters(tagged('cancel')), options: { maxConcurrentRequests: 1 } },
	credentials: CREDENTIAL,
});
const WORKFLOWS = {
	continue: workflow('e2eResendCont001', continueNodes),
	cancel: workflow('e2eResendCancel1', [cancelDeposit]),
	...Object.fromEntries(Object.keys(OPERATIONS).map((key, i) => [`stop-${key}`, workflow(`e2eResendStop00${i}`, [caseNode(key, 'stop', 'stopWorkflow')])])),
};

/** The failures of the Continue cases: p-1 answered 500 (its error item is first: n8n retries), p-3's connection cut. */
const continueFailures = Object.values(OPERATIONS).flatMap((op) =>
	['cont', 'errout'].flatMap((tag) => [
		{ route: op.route, status: 500, when: { [op.bodyPath]: `${tag}-p-1` } },
		{ route: op.route, status: 0, when: { [op.bodyPath]: `${tag}-p-3` } },
	]),
);

const valueAt = (body, dotted) => dotted.split('.').reduce((v, key) => (v !== null && typeof v === 'object' ? v[key] : undefined), body);

for (const version of VERSIONS) {
	describe(`n8n ${version}: Retry On Fail never sends money or a message twice`, () => {
		const state = { sandbox: null, instance: null, server: null, ids: {} }; // ids: the workflows' ids by their key in WORKFLOWS

		const control = (method, controlPath, body) => emulatorControl(state.sandbox.url, method, controlPath, body);

		/** Requests per item tag of one case, e.g. { 'cont-p-1': 1, ... }. */
		const requestsOf = async (key, tag) => {
			const op = OPERATIONS[key];
			const counts = {};
			for (const request of await emulatorRequests(state.sandbox.url, op.route)) {
				const value = valueAt(request.body, op.bodyPath);
				if (typeof value === 'string' && value.startsWith(`${tag}-`)) counts[value] = (counts[value] ?? 0) + 1;
			}
			return counts;
		};

		const run = async (key, failures) => {
			await control('POST', 'reset');
			await control('POST', 'config', { failures });
			const execution = await state.server.runWorkflow(state.ids[key], { trigger: 'Start' });
			return { ...execution, errorMessage: execution.data.resultData.error?.message };
		};

		before(
			async () => {
				state.sandbox = await startSandbox({ port: 0 });
				state.instance = await createInstance(version, { name: 'resend', log });
				state.server = await state.instance.startServer();
				await state.server.ensureLoggedIn();
				const { workflowIds } = await state.server.createCredentialsAndWorkflows({
					credentials: [sandboxCredential(state.sandbox.baseUrl)],
					workflows: Object.values(WORKFLOWS),
				});
				Object.keys(WORKFLOWS).forEach((key, i) => (state.ids[key] = workflowIds[i]));
			},
			{ timeout: 30 * 60 * 1000 },
		);

		after(async () => {
			if (state.instance) await state.instance.destroy();
			if (state.sandbox) await state.sandbox.close();
		});

		it('stopping the execution lets the deposit on the wire finish, sends nothing more, and logs its receipt', async () => {
			await control('POST', 'reset');
			await control('POST', 'config', { latencyMs: 2000 });
			const { server } = state;
			const executionId = await server.startWorkflow(state.ids.cancel, { trigger: 'Start' });
			// The token is issued (none is cached yet: this case runs first), then the first deposit waits in the emulator.
			const depositOnTheWire = async () => {
				const stats = await control('GET', 'stats');
				return stats.counts['POST /auth'] === 1 && stats.inFlight >= 1;
			};
			await waitUntil('the token issued and the first deposit on the wire', depositOnTheWire, { timeoutMs: 120000, intervalMs: 50 });
			await server.post(`/rest/executions/${executionId}/stop`, {});
			const readLog = () => server.readLog().replace(/\x1b\[[0-9;]*m/g, '');
			const report = 'The execution was cancelled during Challenge Deposit; 1 item was already accepted by the API and 4 not sent';
			await waitUntil("n8n's log to report the cancellation", () => readLog().includes(report), { timeoutMs: 30000, intervalMs: 100 }).catch(() => {});
			const requests = await emulatorRequests(state.sandbox.url, OPERATIONS.deposit.route);
			assert.deepEqual(requests.map((r) => [r.body.description, r.status]), [['cancel-p-1', 200]], 'one deposit, answered, nothing more');
			const logged = readLog();
			log(`${version} cancel: ${JSON.stringify(logged.split('\n').filter((line) => /cancelled during|do not send again/.test(line)))}`);
			assert.ok(logged.includes(report), 'n8n\'s log has the report');
			assert.match(logged, /Accepted by the API, do not send again: item 1 \(transactionId [\w-]+\)\./);
		});

		for (const [key, op] of Object.entries(OPERATIONS)) {
			it(`${op.label}, Stop Workflow, the 3rd item answered 500: one request per item, the error lists the accepted ones`, async () => {
				const result = await run(`stop-${key}`, [{ route: op.route, status: 500, when: { [op.bodyPath]: 'stop-p-3' } }]);
				const counts = await requestsOf(key, 'stop');
				log(`${version} ${op.label} stop: ${JSON.stringify(counts)}; ${result.errorMessage ?? 'the execution succeeded'}`);
				assert.deepEqual(counts, { 'stop-p-1': 1, 'stop-p-2': 1, 'stop-p-3': 1, 'stop-p-4': 1, 'stop-p-5': 1 });
				assert.equal(result.errorMessage, `${op.label} failed for item 3; 4 items were already accepted by the API and 0 not sent`);
				const { description } = nodeError(result, `${op.label} stop`);
				assert.match(description, /^Accepted by the API, do not send again: item 1 \(\w+ [\w-]+\), item 2 \(\w+ [\w-]+\), item 4 \(\w+ [\w-]+\), item 5 \(\w+ [\w-]+\)\./);
				assert.match(description, /May have been carried out, check with the provider before sending again: item 3\./);
			});
		}

		it('Continue and Continue (using error output), p-1 answered 500 and p-3 cut; Continue On Fail with an invalid first item', async () => {
			const result = await run('continue', continueFailures);
			const cases = [...Object.keys(OPERATIONS).flatMap((key) => [[key, 'cont'], [key, 'errout']]), ['deposit', 'inv'], ['otp', 'inv']];
			const requests = {};
			for (const [key, tag] of cases) requests[`${OPERATIONS[key].label} ${tag}`] = await requestsOf(key, tag);
			for (const [name, counts] of Object.entries(requests)) log(`${version} ${name}: ${JSON.stringify(counts)}`);
			assert.equal(result.errorMessage, undefined, result.errorMessage);
			for (const op of Object.values(OPERATIONS)) {
				for (const tag of ['cont', 'errout']) {
					const name = `${op.label} ${tag}`;
					const counts = requests[name];
					assert.deepEqual(counts, Object.fromEntries(REFS.map((ref) => [`${tag}-${ref}`, 1])), `${name}: one request per item`);
					const items = nodeOutput(result, name, { json: false });
					const failed = tag === 'cont' ? items.filter((i) => i.json.error) : nodeOutput(result, name, { output: 1, json: false });
					const accepted = items.filter((i) => !i.json.error);
					assert.deepEqual(accepted.map((i) => i.pairedItem.item), [1, 3, 4], `${name}: the accepted items keep their answers`);
					for (const item of accepted) assert.ok(op.receipt(item.json), `${name}: item ${item.pairedItem.item + 1} has its receipt`);
					assert.deepEqual(failed.map((i) => i.pairedItem.item), [0, 2], `${name}: the unknown ones are error items`);
					assert.match(failed[0].json.error, /HTTP 500/);
					assert.match(failed[1].json.error, /could not reach the API/);
					assert.match(JSON.stringify(failed), /may have received and carried out this request/);
				}
			}
			for (const key of ['deposit', 'otp']) {
				const name = `${OPERATIONS[key].label} inv`;
				assert.deepEqual(requests[name], { 'inv-p-2': 1, 'inv-p-3': 1, 'inv-p-4': 1, 'inv-p-5': 1 }, `${name}: each valid item sent once`);
				const out = nodeOutput(result, name);
				assert.match(out[0].error, /\(item 1\)$/);
				assert.equal(out.slice(1).filter((json) => !json.error).length, 4);
			}
		});
	});
}

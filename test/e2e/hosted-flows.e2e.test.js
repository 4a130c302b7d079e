'use strict';
// examples/hosted-identity-journey.json and examples/pay-by-bank.json in a running n8n server (2.40
// and 1.123) against the sandbox emulator, as their users run them: the sign-up page or the shop
// posts to the example's webhook and gets the link back; the person or payer finishes in the
// provider's pages (the emulator's control call ends the journey; the test opens the payment's
// redirect URL as the payer); the provider delivers the signed result to the example's trigger
// (source signedResult), and the second part of the example runs: the verdict into the data table
// identity_journeys, the payment's status read back and its outcome branched on (n8n 1.x: the table
// by id, lib/example-server.js).

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

const { SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { nodeOutput } = require('./lib/instance');
const { dataTableRows } = require('./lib/data-tables');
const { exampleSuite } = require('./lib/example-server');
const { EXAMPLE_CREDENTIALS, TRIGGER_TYPE, readExample: example } = require('./lib/workflows');
const util = require('./lib/util');
const { emulatorControl } = util;
const { postJson, waitUntil } = require('./trigger-helpers');

const JOURNEY = example('hosted-identity-journey.json');
const PAYMENT = example('pay-by-bank.json');
const SIGNING_SECRET = EXAMPLE_CREDENTIALS.find((c) => c.type === 'verificationServicesWebhookApi').data.signingSecret;
const TABLE = 'identity_journeys';

const versions = util.e2eVersions();
const log = (msg) => util.defaultLog(`[hosted-flows] ${msg}`);

/** The production URL of an example's trigger on signed results. */
const triggerUrl = (base, workflow) => `${base}/webhook/${workflow.nodes.find((n) => n.type === TRIGGER_TYPE && n.parameters.source === 'signedResult').webhookId}/webhook`;

/** What each verdict leaves in the data table. */
const VERDICTS = {
	PASS: { decision: 'approve', branch: 'Approve' },
	DECLINE: { decision: 'reject', branch: 'Reject' },
	REVIEW: { decision: 'review', branch: 'Manual Review' },
	FLAG: { decision: 'review', branch: 'Fraud Suspicion' },
};

for (const version of versions) {
	describe(`examples/hosted-identity-journey.json and examples/pay-by-bank.json in a running n8n ${version}`, () => {
		// Activation takes effect a moment after the call on 2.x: an unsigned POST is refused (401) once the trigger listens.
		const ready = async ({ base }) => {
			for (const workflow of [JOURNEY, PAYMENT]) {
				await waitUntil('the trigger to listen', async () => (await postJson(triggerUrl(base, workflow), { probe: true })).status === 401);
			}
		};
		const suite = exampleSuite(version, { name: 'hosted-flows', log, workflows: [JOURNEY, PAYMENT], ready });
		const { requests } = suite;
		const emulator = (method, route, body) => emulatorControl(suite.sandbox.url, method, route.slice(1), body);

		/** The run of `workflowId` that the trigger started for a result about `id`, once finished. */
		async function triggeredRun(workflowId, triggerName, field, id) {
			let found;
			await waitUntil(`the run of ${triggerName} for ${id}`, async () => {
				for (const summary of await suite.server.listExecutions(workflowId, { limit: 20 })) {
					if (['new', 'running', 'waiting'].includes(summary.status)) continue;
					const execution = await suite.server.getExecution(summary.id);
					const [item] = nodeOutput(execution.data, triggerName) ?? [];
					if (item?.[field] === id) found = execution;
				}
				return found !== undefined;
			}, { timeoutMs: 60000, intervalMs: 500 });
			assert.equal(found.status, 'success', `the run for ${id} succeeded: ${JSON.stringify(found.data?.resultData?.error ?? null)}`);
			return found.data;
		}

		test('hosted journey: the webhook answers with the link; each verdict delivered to the trigger leaves its row; a resend starts nothing', async () => {
			await emulator('POST', '/results/webhook', { url: triggerUrl(suite.base, JOURNEY), signingSecret: SIGNING_SECRET });
			const started = {};
			for (const [i, verdict] of Object.keys(VERDICTS).entries()) {
				const customerNumber = `C-${version}-${i + 1}`;
				const res = await postJson(`${suite.base}/webhook/identity-journey/start`, { customerNumber, fullName: 'Erika Mustermann', dateOfBirth: '1964-08-12' });
				assert.equal(res.status, 200, `the webhook answered ${res.status}: ${JSON.stringify(res.data)}`);
				const { link, transactionId, message } = res.data;
				assert.equal(link, `${suite.sandbox.url}/journey/${transactionId}`, 'the link is the journey\'s uiHandle');
				assert.match(message, new RegExp(`Please open ${link.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
				started[verdict] = { transactionId, customerNumber };
			}
			const [request] = await requests('POST /sdk/universal/handshake');
			log(`${version} startHostedJourney request: ${JSON.stringify({ ...request, journey: { ...request.journey, customerId: '[the credential\'s]' } })}`);
			assert.deepEqual(request, {
				journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' },
				validationData: { fullName: 'Erika Mustermann', DOB: '1964/08/12' },
				steps: [
					{
						id: 'documentVerification',
						type: 'documentVerification',
						interface: 'Umbrella Toolbox',
						configuration: { biometricMatching: true, liveness: true, permittedDocuments: [{ idType: 'passport' }, { idType: 'nationalId', bloc: 'EEA' }] },
					},
				],
				passThroughData: { customerNumber: `C-${version}-1` },
			});

			for (const [verdict, { transactionId, customerNumber }] of Object.entries(started)) {
				const { delivery } = await emulator('POST', `/hosted-journeys/${transactionId}/complete`, { success: verdict });
				assert.deepEqual(delivery.attempts.map((a) => a.status), [200], `the ${verdict} result was accepted at once`);
				const run = await triggeredRun(suite.ids[0], 'Journey Result', 'transactionId', transactionId);
				const [item] = nodeOutput(run, 'Journey Result');
				assert.equal(item.success, verdict);
				assert.equal(item.customerId, '[redacted]');
				assert.deepEqual(item.passThroughData, { customerNumber });
				assert.ok(nodeOutput(run, VERDICTS[verdict].branch), `${verdict} took the ${VERDICTS[verdict].branch} branch`);
			}
			const rows = (await dataTableRows(suite.server, suite.tables[TABLE])).map(({ transactionId, customerNumber, verdict, decision, journeyStatus }) => ({ transactionId, customerNumber, verdict, decision, journeyStatus }));
			assert.deepEqual(
				rows,
				Object.entries(started).map(([verdict, { transactionId, customerNumber }]) => ({ transactionId, customerNumber, verdict, decision: VERDICTS[verdict].decision, journeyStatus: 'complete' })),
			);
			log(`${version} journey rows: ${JSON.stringify(rows)}`);

			// The provider resends a result it thinks was lost: the trigger answers and starts nothing.
			const { delivery } = await emulator('POST', `/hosted-journeys/${started.PASS.transactionId}/complete`, { success: 'PASS' });
			assert.deepEqual(delivery.attempts.map((a) => a.answer), [{ received: true, started: false, reason: 'duplicate' }]);
			assert.equal((await dataTableRows(suite.server, suite.tables[TABLE])).length, 4);
		});

		test('pay by bank: the webhook answers with the redirect URL; the payer\'s bank decides; the result starts the status check and its branch', async () => {
			await emulator('POST', '/results/webhook', { url: triggerUrl(suite.base, PAYMENT), signingSecret: SIGNING_SECRET });
			const outcomes = [
				{ orderId: `order-${version}-paid`, amount: '49.90', bank: 'SUCCESS', outcome: 'succeeded', branch: 'Order Paid' },
				{ orderId: `order-${version}-declined`, amount: 12, bank: 'FAILURE_DECLINED', outcome: 'failed', branch: 'Payment Failed' },
			];
			for (const { orderId, amount, bank, outcome, branch } of outcomes) {
				const res = await postJson(`${suite.base}/webhook/pay-by-bank/checkout`, { orderId, amount });
				assert.equal(res.status, 200, `the webhook answered ${res.status}: ${JSON.stringify(res.data)}`);
				const { redirectUrl, referenceId, requestId } = res.data;
				assert.equal(redirectUrl, `${suite.sandbox.url}/pay/${requestId}`);
				assert.equal(referenceId, orderId);

				// The payer, sent to the redirect URL, confirms (or is declined) at their bank.
				const page = await util.freshFetch(`${redirectUrl}?status=${bank}`);
				assert.equal(page.status, 200);
				const run = await triggeredRun(suite.ids[1], 'Payment Result', 'referenceId', orderId);
				const [result] = nodeOutput(run, 'Payment Result');
				assert.deepEqual([result.status, result.paymentOutcome, result.requestId], [bank, outcome, requestId]);
				const [checked] = nodeOutput(run, 'Payment Status');
				assert.deepEqual([checked.paymentStatus, checked.paymentOutcome], [bank, outcome]);
				assert.ok(nodeOutput(run, branch), `${bank} took the ${branch} branch`);
				log(`${version} getPaymentStatus for ${orderId}: ${JSON.stringify(checked)}`);
			}
			const initiated = await requests('POST /payments/initiate');
			log(`${version} initiatePayment requests: ${JSON.stringify(initiated)}`);
			assert.deepEqual(initiated, outcomes.map(({ orderId }, i) => ({
				referenceId: orderId,
				transactionDescription: `Order ${orderId}`,
				returnUrl: 'https://shop.example.com/checkout/done',
				IBAN: 'DE89370400440532013000',
				currency: 'EUR',
				amount: ['49.90', '12.00'][i],
				language: 'en',
			})));
			assert.deepEqual((await requests('POST /payments/status')).map((b) => b.referenceId), outcomes.map((o) => o.orderId));
		});
	});
}

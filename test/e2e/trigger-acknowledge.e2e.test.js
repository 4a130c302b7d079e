'use strict';
// What the trigger answers for each source, and what n8n then runs, in a real n8n server: a provider
// forgets whatever it got a 2xx for, and resends the rest. Four workflows (QES status pings with Fetch
// Verification Result and Only Statuses; all signed results; payment results only, refusing and
// confirming unsigned ones), each case on its own workflow's execution count; the flood and where
// 2,100 keys and deliveries are held: test/e2e/README.md. A signed result older than 25 hours and
// payment statuses the list does not name: test/nodes/webhook-trigger.test.ts.

const { describe } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { pool } = require('../../bench/lib/deliveries');
const { nodeOutput } = require('./lib/instance');
const util = require('./lib/util');
const { QES_TRIGGER, RESULTS_TRIGGER, SECRET_HEADER, control, countExecutions, e2eVersions, postJson, qesWorkflow, resultsWorkflow, settleCount, storedWebhook, triggerSuite, waitForActivation } = require('./trigger-helpers');

const GET_VERIFICATION = 'GET /onboarding/getVerification/:sessionId';
const FLOOD_COUNT = Number(process.env.TRIGGER_FLOOD_COUNT || 100);
const FLOOD_CONCURRENCY = 20;

/** Waits for `expected` finished executions and no further one; returns the newest one's id. */
const settle = async (server, workflowId, expected, opts) => (await settleCount(server, workflowId, expected, { fresh: 1, timeoutMs: 180000, ...opts }))[0];

for (const version of e2eVersions()) {
	describe(`Trigger answers in a running n8n ${version === 'v2' ? '2.x' : '1.x'} (${version}): 2xx only for what is started or safe to forget`, () => {
		let qesSecret;
		const suite = triggerSuite({
			version,
			name: 'trigger-acknowledge',
			sequential: false, // each case on its own workflow
			stepTimeoutMs: 15 * 60 * 1000,
			ready: async () => {
				await suite.server.activateWorkflow(ids.qes);
				await waitForActivation(suite, ids.qes, urls.qes, 1);
				qesSecret = (await storedWebhook(suite.sandbox)).metadata.authHeader[SECRET_HEADER];
				for (const key of ['results', 'payments', 'unsigned']) await suite.activate(ids[key], urls[key]);
			},
			workflows: ({ api, webhook }) => ({
				qes: qesWorkflow(`QES, completed only (${version})`, api, { fetchVerification: true, onlyStatuses: 'completed' }),
				results: resultsWorkflow(`Signed results (${version})`, webhook, {}),
				payments: resultsWorkflow(`Payment results (${version})`, webhook, { events: 'paymentResult' }),
				unsigned: resultsWorkflow(`Payment results, unsigned ones confirmed with the API (${version})`, { ...webhook, ...api }, { events: 'paymentResult', unsignedPayments: 'confirm' }),
			}),
		});
		const { step: check, ids, urls } = suite;

		const sign = (raw) => crypto.createHmac('sha256', suite.signingSecret).update(raw).digest('hex');
		/** POSTs a body signed as the provider signs it; never throws on an HTTP status. */
		async function deliverSigned(url, body) {
			const raw = JSON.stringify(body);
			try {
				return await postJson(url, raw, { signature: sign(raw) });
			} catch (error) {
				return { status: null, data: String(error?.cause?.code ?? error?.message ?? error) };
			}
		}

		check('QES, a ping without a status while Get Verification hangs, answers 500 or 429: answered 503, nothing starts; its resend with a healthy API starts one execution', async () => {
			// The emulator's session qes-completed-001 is completed; each case's ping is another body.
			const ping = (what) => postJson(urls.qes, { event: 'qes.status', sessionId: 'qes-completed-001', case: what }, { [SECRET_HEADER]: qesSecret });
			const set = async (failures) => assert.equal((await control(suite.sandbox, 'POST', '/config', { failures })).status, 200);
			const cases = [
				['hangs', { route: GET_VERIFICATION, hang: true }],
				['answers 500', { route: GET_VERIFICATION, status: 500 }],
				['answers 429 with Retry-After 2', { route: GET_VERIFICATION, status: 429, retryAfter: 2 }],
			];
			let lastId;
			for (const [index, [what, failure]] of cases.entries()) {
				await set([failure]);
				const first = await ping(what);
				assert.equal(first.status, 503, `${what}: ${JSON.stringify(first.data)}`);
				await util.sleep(1000);
				assert.equal(await countExecutions(suite.server, ids.qes), index, `${what}: nothing started`);
				await set([]);
				const resend = await ping(what);
				assert.equal(resend.status, 200, `${what}, resent: ${JSON.stringify(resend.data)}`);
				lastId = await settle(suite.server, ids.qes, index + 1);
			}
			const execution = await suite.server.getExecution(lastId);
			const [item] = nodeOutput(execution.data, QES_TRIGGER);
			assert.equal(item.verification?.data?.status, 'completed', 'started with the fetched result');
		});

		check('an unsigned payment result: 401 by default; with Unsigned Payment Results = Confirm With the API it starts with the API\'s status, not the body\'s', async () => {
			const referenceId = `ref-unsigned-${version}`;
			const paymentsBefore = await countExecutions(suite.server, ids.payments);
			const auth = await (await util.freshFetch(`${suite.sandbox.baseUrl}/auth`, {
				method: 'POST',
				headers: { 'Api-Key': SANDBOX_API_KEY, 'Customer-Id': SANDBOX_CUSTOMER_ID, 'content-type': 'application/x-www-form-urlencoded' },
				body: '',
			})).json();
			const initiated = await util.freshFetch(`${suite.sandbox.baseUrl}/payments/initiate`, {
				method: 'POST',
				headers: { authorization: `Bearer ${auth.access_token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ referenceId, transactionDescription: 'Order', returnUrl: 'https://shop.example/back', IBAN: 'DE89370400440532013000', currency: 'EUR', amount: '49.90' }),
			});
			assert.equal(initiated.status, 200, await initiated.text());
			assert.equal((await control(suite.sandbox, 'POST', `/payments/${referenceId}/status`, { status: 'FAILURE_DECLINED', deliver: false })).status, 200);

			const claim = { referenceId, status: 'SUCCESS', statusReasonInformation: 'paid', paymentOutcome: 'succeeded' };
			const refused = await postJson(urls.payments, claim);
			const unknown = await postJson(urls.unsigned, { ...claim, referenceId: `ref-nobody-${version}` });
			const confirmed = await postJson(urls.unsigned, claim);
			assert.deepEqual([refused.status, unknown.status, confirmed.status], [401, 401, 200], `confirmed: ${JSON.stringify(confirmed.data)}`);
			const lastId = await settle(suite.server, ids.unsigned, 1);
			assert.equal(await countExecutions(suite.server, ids.payments), paymentsBefore, 'the default workflow started nothing');
			const [item] = nodeOutput((await suite.server.getExecution(lastId)).data, RESULTS_TRIGGER);
			assert.deepEqual([item.referenceId, item.status, item.paymentOutcome, item.signed, item.statusReasonInformation], [referenceId, 'FAILURE_DECLINED', 'failed', false, 'Payment failure declined']);
		});

		check(`a flood of ${FLOOD_COUNT} distinct signed journey results, ${FLOOD_CONCURRENCY} at a time: each answered 2xx started exactly once; a copy of the first then starts nothing`, async () => {
			const bodies = Array.from({ length: FLOOD_COUNT }, (_, i) => ({
				transactionId: `tx-flood-${version}-${String(i).padStart(5, '0')}`,
				timestamp: new Date().toISOString(),
				status: 'complete',
				success: 'PASS',
			}));
			const before = await countExecutions(suite.server, ids.results);
			const started = Date.now();
			let pending = bodies.map((_, i) => i);
			const tally = {};
			// A provider resends what it did not get a 2xx for, 6 more times.
			for (let round = 0; round < 6 && pending.length > 0; round++) {
				const answers = await pool(pending.length, FLOOD_CONCURRENCY, async (k) => await deliverSigned(urls.results, bodies[pending[k]]));
				for (const a of answers) tally[`${round}:${a.status}`] = (tally[`${round}:${a.status}`] ?? 0) + 1;
				pending = pending.filter((_, k) => !(answers[k].status >= 200 && answers[k].status < 300));
			}
			const sentMs = Date.now() - started;
			assert.deepEqual(pending, [], 'every delivery was answered 2xx in the end');
			await settle(suite.server, ids.results, before + FLOOD_COUNT, { timeoutMs: 10 * 60 * 1000, quietMs: 5000 });
			suite.log(`flood of ${FLOOD_COUNT}: answers ${JSON.stringify(tally)}, sent in ${sentMs} ms, all executions done after ${Date.now() - started} ms`);

			const copy = await deliverSigned(urls.results, bodies[0]);
			assert.equal(copy.status, 200);
			assert.deepEqual(copy.data, { received: true, started: false, reason: 'duplicate' }, 'the copy of the first is a duplicate');
			await settle(suite.server, ids.results, before + FLOOD_COUNT); // the copy started nothing
		});
	});
}

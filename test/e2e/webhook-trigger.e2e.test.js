'use strict';
// The trigger on signed results (source signedResult) in a real n8n server; the sandbox emulator plays
// the provider: it signs and delivers hosted journey and payment results, resends them, and forges
// them. A second server start on the same user folder, with N8N_PAYLOAD_SIZE_MAX=2, for the restart
// checks and n8n's own body limit (triggerSuite: the steps build on each other).

const { describe } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { nodeOutput } = require('./lib/instance');
const { node, noOp } = require('./lib/workflows');
const util = require('./lib/util');
const { RESULTS_TRIGGER, countExecutions, e2eVersions, nestedJson, nesting, nodeStaticData, postJson, resultsWorkflow, settleCount: settle, triggerSuite, waitUntil } = require('./trigger-helpers');

const MAX_BODY_BYTES = 5 * 1024 * 1024;
/**
 * Seconds the payments workflow waits before it ends: long enough to see it still running after the
 * answer (the check is one REST call, made as soon as the answer is in), short because every payment
 * delivery of the suite waits for it.
 */
const WAIT_SECONDS = 6;

const waitNode = (seconds) => node({ name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: seconds, unit: 'seconds' } });

for (const version of e2eVersions()) {
	describe(`Trigger on signed results in a running n8n ${version === 'v2' ? '2.x' : '1.x'} (${version})`, () => {
		const suite = triggerSuite({
			version,
			name: 'webhook-trigger',
			workflows: ({ webhook: credentials }) => ({
				main: resultsWorkflow(`Signed results (${version})`, credentials, {}),
				payments: resultsWorkflow(`Payment results, then a wait (${version})`, credentials, { events: 'paymentResult' }, { after: [waitNode(WAIT_SECONDS), noOp()] }),
			}),
		});
		const { step, ids, urls } = suite;
		let executionsOfMain = 0;

		/** A control call of the emulator that must answer 200. */
		const emulator = async (method, route, body) => await util.emulatorControl(suite.sandbox.url, method, route.slice(1), body);

		const deliverTo = async (url) => await emulator('POST', '/results/webhook', { url, signingSecret: suite.signingSecret });

		/** The first (and only) item the trigger output in an execution. */
		async function triggerItem(executionId) {
			const execution = await suite.server.getExecution(executionId);
			assert.equal(execution.status, 'success', `execution ${executionId} succeeded`);
			const out = nodeOutput(execution.data, RESULTS_TRIGGER);
			// (No JSON.stringify of the data in the message: it recurses, and one body is 10,000 levels deep.)
			assert.equal(out?.length, 1, `execution ${executionId}: one item from the trigger`);
			return { item: out[0], execution };
		}

		/** Expects `more` new executions of the main workflow (and no others); returns their ids, newest first. */
		async function expectNewExecutions(more) {
			executionsOfMain += more;
			return await settle(suite.server, ids.main, executionsOfMain, { fresh: more });
		}

		const isStarted = (answer) => answer?.started === true;
		const isDuplicate = (answer) => answer?.started === false && answer?.reason === 'duplicate';

		step('activation serves the production URL; a genuine signed journey result starts exactly one execution', async () => {
			assert.equal((await postJson(urls.main, { probe: true })).status, 404, 'no production webhook before activation');
			await suite.activate(ids.main, urls.main);
			await deliverTo(urls.main);

			// What the execution holds (the item, the customer id redacted, the NoOp's input) is the golden workflow trigger-signed-result.
			const { delivery, payload } = await emulator('POST', '/results/journey', { transactionId: `tx-genuine-${version}`, success: 'REVIEW' });
			assert.deepEqual(delivery.attempts.map((a) => [a.status, a.answer]), [[200, { received: true, started: true }]], 'answered 200 at the first attempt');
			const [id] = await expectNewExecutions(1);
			const { item, execution } = await triggerItem(id);
			assert.deepEqual([item.transactionId, item.success], [payload.transactionId, 'REVIEW']);
			const everything = JSON.stringify(execution) + JSON.stringify(await suite.server.getWorkflow(ids.main));
			assert.ok(!everything.includes(suite.signingSecret), 'the signing secret is nowhere in the execution or the workflow');
			assert.ok(!everything.includes(SANDBOX_CUSTOMER_ID), 'nor the customer id');
		});

		step('30+ forged copies of one result are answered 401, all alike, and start nothing (n8n answers a body it no longer reads as JSON with 422); the genuine one then starts one execution', async () => {
			const forgeries = await emulator('GET', '/results/forgeries');
			assert.ok(forgeries.length >= 30, `the emulator forges ${forgeries.length} ways`);
			const journey = { transactionId: `tx-forged-${version}`, success: 'PASS' };
			const byN8n = [];
			for (const { kind, what } of forgeries) {
				const specs = [{ journey }];
				// The same for a payment result and an encrypted (text/plain) body, a few ways each.
				if (['otherSecret', 'bodyByteChanged', 'truncatedHex', 'noSignature', 'prefixedHex'].includes(kind)) specs.push({ payment: { referenceId: `ref-forged-${version}` } }, { rawBody: 'cGF5bG9hZA==', contentType: 'text/plain' });
				for (const spec of specs) {
					const res = await emulator('POST', '/results/forge', { kind, ...spec });
					if (res.status === 422) byN8n.push(kind);
					else assert.deepEqual([res.status, res.answer], [401, { message: 'Unauthorized' }], `${kind} (${what}), ${Object.keys(spec)[0]}: 401 that says nothing about why`);
				}
			}
			suite.log(`${forgeries.length} forgeries refused; n8n answered 422 to: ${byN8n.join(', ') || 'none'}`);
			assert.equal(await countExecutions(suite.server, ids.main), executionsOfMain, 'no execution so far');

			const { delivery } = await emulator('POST', '/results/journey', journey);
			assert.deepEqual(delivery.attempts.map((a) => a.status), [200], 'the genuine result is accepted');
			const [id] = await expectNewExecutions(1);
			assert.equal((await triggerItem(id)).item.transactionId, journey.transactionId);
		});

		step('6 identical copies at the same moment, signed in upper case hex: one execution', async () => {
			const rawBody = JSON.stringify({ referenceId: `ref-at-once-${version}`, status: 'PENDING', statusReasonInformation: 'waiting for the bank', timestamp: new Date().toISOString() });
			const copies = await Promise.all(Array.from({ length: 6 }, async () => await emulator('POST', '/results/raw', { rawBody, retries: 0, hexCase: 'upper' })));
			assert.ok(copies.every((c) => /^[0-9A-F]{64}$/.test(c.delivery.signature)), 'upper case hex');
			const answers = copies.map((c) => c.delivery.attempts[0]);
			assert.ok(answers.every((a) => a.status === 200), `all answered 200: ${JSON.stringify(answers)}`);
			assert.equal(answers.filter((a) => isStarted(a.answer)).length, 1, 'one copy started');
			assert.equal(answers.filter((a) => isDuplicate(a.answer)).length, 5, 'five were duplicates');
			const [id] = await expectNewExecutions(1);
			assert.equal((await triggerItem(id)).item.paymentOutcome, 'pending');
		});

		step('5 MiB and 10,000 levels deep, signed in mixed case hex, start one execution each with their body; 5 MiB + 1 byte and 6 MB are refused with 413', async () => {
			const prefix = `{"referenceId":"ref-big-${version}","status":"SUCCESS","pad":"`;
			const big = `${prefix}${'x'.repeat(MAX_BODY_BYTES - prefix.length - 2)}"}`;
			assert.equal(Buffer.byteLength(big), MAX_BODY_BYTES);
			const depth = 10_000;
			const deep = `{"transactionId":"tx-deep-${version}","status":"complete","success":"PASS","nested":${nestedJson(depth)}}`;

			for (const [what, rawBody] of [
				['5 MiB + 1 byte', `${big.slice(0, -2)}x"}`],
				['6 MB', `${prefix}${'x'.repeat(6_000_000 - prefix.length - 2)}"}`],
			]) {
				const { delivery } = await emulator('POST', '/results/raw', { rawBody, retries: 0 });
				assert.deepEqual(delivery.attempts.map((a) => [a.status, a.answer]), [[413, { message: 'Payload Too Large' }]], what);
			}
			assert.equal(await countExecutions(suite.server, ids.main), executionsOfMain, 'nothing started');

			for (const rawBody of [big, deep]) {
				const { delivery } = await emulator('POST', '/results/raw', { rawBody, retries: 0, hexCase: 'mixed' });
				assert.match(delivery.signature, /[a-f].*[A-F]|[A-F].*[a-f]/);
				assert.deepEqual(delivery.attempts.map((a) => a.status), [200], 'mixed case hex accepted');
			}
			const [deepId, bigId] = await expectNewExecutions(2);
			const deepItem = (await triggerItem(deepId)).item;
			assert.equal(deepItem.success, 'PASS');
			assert.deepEqual(nesting(deepItem.nested), [depth, true], 'all levels reached the workflow');
			const bigItem = (await triggerItem(bigId)).item;
			assert.equal(bigItem.pad.length, MAX_BODY_BYTES - prefix.length - 2, 'the whole 5 MiB reached the workflow');
			assert.equal(bigItem.paymentOutcome, 'succeeded');
		});

		step('the emulator resends while the workflow is not active (404) and the first answer after activation starts one execution', async () => {
			await emulator('POST', '/config', { resultDelivery: { timeScale: 0.002 } }); // resends within 173 s
			await deliverTo(urls.payments);
			const { delivery } = await emulator('POST', '/results/payment', { referenceId: `ref-retried-${version}`, status: 'SETTLEMENT_COMPLETED', wait: false });
			await waitUntil('two refused attempts', async () => (await emulator('GET', `/results/deliveries/${delivery.id}`)).attempts.length >= 2);
			await suite.server.activateWorkflow(ids.payments);
			const done = await waitUntil('the delivery to succeed', async () => {
				const record = await emulator('GET', `/results/deliveries/${delivery.id}`);
				assert.ok(!(record.done && !record.delivered), `given up: ${JSON.stringify(record.attempts)}`);
				return record.delivered && record;
			}, { timeoutMs: 180000 });
			const statuses = done.attempts.map((a) => a.status);
			assert.equal(statuses.at(-1), 200);
			assert.ok(statuses.slice(0, -1).every((s) => s === 404) && statuses.length >= 3, `404s, then 200: ${statuses}`);
			suite.log(`resent ${statuses.length - 1} times (${statuses.join(', ')}) at ${done.attempts.map((a) => a.at.slice(17, 23)).join(', ')}`);
			await emulator('POST', '/config', { resultDelivery: { timeScale: 1 } });
			const [id] = await settle(suite.server, ids.payments, 1, { fresh: 1, timeoutMs: (WAIT_SECONDS + 120) * 1000 });
			assert.equal((await triggerItem(id)).item.paymentOutcome, 'succeeded');
		});

		// That Events holds back a journey result (200, 'not in Events') is test/nodes/webhook-trigger.test.ts, through n8n-core's webhook code.
		step('Events = Payment Results: a payment result is answered before its workflow ends', async () => {
			const payment = await emulator('POST', '/results/payment', { referenceId: `ref-slow-workflow-${version}`, status: 'FAILURE_CANCELED' });
			assert.deepEqual(payment.delivery.attempts.map((a) => a.status), [200]);
			// The workflow waits WAIT_SECONDS after the trigger. Right after the answer its execution has
			// not finished: the answer did not wait for the workflow (it would have come after the end).
			const finished = await suite.server.get('/rest/executions', {
				query: { filter: JSON.stringify({ workflowId: ids.payments, status: ['success', 'error', 'crashed', 'canceled'] }), limit: '1' },
			});
			assert.equal(finished.count, 1, 'only the earlier execution has finished when the answer is in');
			const [id] = await settle(suite.server, ids.payments, 2, { fresh: 1, timeoutMs: (WAIT_SECONDS + 120) * 1000 });
			const { item } = await triggerItem(id);
			assert.deepEqual([item.resultType, item.status, item.paymentOutcome], ['paymentResult', 'FAILURE_CANCELED', 'failed']);
			await suite.server.deactivateWorkflow(ids.payments);
		});

		step('after an n8n restart (N8N_PAYLOAD_SIZE_MAX=2) the memory is gone (it is the process\'s): the first resend of an earlier result starts once more, the later ones and a rebuilt body nothing', async () => {
			await deliverTo(urls.main);
			const { delivery } = await emulator('POST', '/results/journey', { transactionId: `tx-restart-${version}`, success: 'FLAG' });
			assert.ok(isStarted(delivery.attempts[0].answer));
			await expectNewExecutions(1);
			assert.equal((await nodeStaticData(suite.server, ids.main, RESULTS_TRIGGER))?.recentDeliveries, undefined, 'no delivery writes static data');

			await suite.restart({ N8N_PAYLOAD_SIZE_MAX: '2' });
			await waitUntil('the restarted n8n to serve the production URL', async () => (await postJson(urls.main, { probe: true })).status === 401);

			const one = await emulator('POST', '/results/replay', { deliveryId: delivery.id, copies: 2 });
			const together = await emulator('POST', '/results/replay', { deliveryId: delivery.id, copies: 3, atOnce: true });
			const answers = [...one.answers, ...together.answers];
			assert.ok(answers.every((a) => a.status === 200), `all answered 200: ${JSON.stringify(answers)}`);
			assert.deepEqual(answers.map((a) => isDuplicate(a.answer)), [false, true, true, true, true], `after the restart the first resend starts: ${JSON.stringify(answers)}`);
			// The provider may build the body again: same transaction, status and verdict, another timestamp.
			const rebuilt = await emulator('POST', '/results/journey', { transactionId: `tx-restart-${version}`, success: 'FLAG', extra: { attempt: 7 } });
			assert.ok(isDuplicate(rebuilt.delivery.attempts[0].answer), `rebuilt body: ${JSON.stringify(rebuilt.delivery.attempts)}`);
			await expectNewExecutions(1);

			const fresh = await emulator('POST', '/results/journey', { transactionId: `tx-after-restart-${version}` });
			assert.ok(isStarted(fresh.delivery.attempts[0].answer), 'a new result still starts');
			await expectNewExecutions(1);
		});

		// n8n reads the body before the node (the trigger is a version-2 webhook node); the node checks the
		// signature on the exact bytes that arrived (req.rawBody).
		step('a signed encrypted result starts it with the exact text the provider sent; correctly signed JSON that is not JSON is n8n\'s 422 before the node runs', async () => {
			await deliverTo(urls.main);
			const encrypted = crypto.randomBytes(300).toString('base64');
			const sent = await emulator('POST', '/results/raw', { rawBody: encrypted, contentType: 'text/plain', retries: 0 });
			assert.deepEqual(sent.delivery.attempts.map((a) => [a.status, a.answer]), [[200, { received: true, started: true }]], 'started');
			const [id] = await expectNewExecutions(1);
			assert.deepEqual((await triggerItem(id)).item, { body: encrypted, resultType: 'encrypted' }, 'the exact text the provider sent');

			// No provider sends this as a result.
			const broken = await emulator('POST', '/results/raw', { rawBody: '{"transactionId":"tx-broken"', contentType: 'application/json', retries: 0 });
			assert.equal(broken.delivery.attempts[0].status, 422, 'n8n answers 422');
			await settle(suite.server, ids.main, executionsOfMain);
		});

		// n8n parses a JSON body before the trigger runs (node version 2), so over its own limit n8n
		// answers 500 itself; the trigger never sees the delivery, and nothing starts.
		step('a JSON body over n8n\'s own limit (N8N_PAYLOAD_SIZE_MAX=2, since the restart) starts nothing: n8n answers 500', async () => {
			await deliverTo(urls.main);
			const overN8nLimit = `{"referenceId":"ref-3mb-${version}","status":"SUCCESS","pad":"${'y'.repeat(3_000_000)}"}`;
			const big = await emulator('POST', '/results/raw', { rawBody: overN8nLimit, retries: 0 });
			await settle(suite.server, ids.main, executionsOfMain);
			assert.deepEqual(big.delivery.attempts.map((a) => a.status), [500], 'over N8N_PAYLOAD_SIZE_MAX');
		});
	});
}

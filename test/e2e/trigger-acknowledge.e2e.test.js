'use strict';
// What the two webhook triggers answer, and whether an execution exists for every 2xx, in a real n8n
// server (`n8n start`): a provider forgets whatever it got a 2xx for, and resends the rest.
//
//   npm run build && N8N_E2E_VERSIONS=v2 node --test test/e2e/trigger-acknowledge.e2e.test.js
//
// Per n8n version: one instance, one server start, four workflows created through its REST API (QES
// Onboarding Trigger with Fetch Verification Result and Only Statuses; Verification Webhook Trigger for
// all results; the same for payment results only, once refusing and once confirming unsigned ones),
// each case on its own workflow's execution count. The flood sends TRIGGER_FLOOD_COUNT (default 400)
// distinct signed journey results, 20 at a time: the answers and executions of deliveries that overlap
// in a real n8n. That the memory keeps more keys than the 2,000 it once held is
// test/shared/delivery-memory.test.ts (2,100 and 50,000 keys); n8n's throughput and memory under 2,100
// deliveries is the flood row of `npm run bench`.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput, packageManifest } = require('./lib/instance');
const { node, noOp, chain } = require('./lib/workflows');
const util = require('./lib/util');
const { closeSuite, control, countExecutions, postJson, serverEnv, settleCount, storedWebhook, waitForActivation, waitUntil } = require('./trigger-helpers');

const PACKAGE = 'n8n-nodes-verification-services';
const QES_NAME = 'QES Onboarding Trigger';
const RESULTS_NAME = 'Verification Webhook Trigger';
const SECRET_HEADER = 'X-Verification-Webhook-Secret';
const CONFIGURE = 'POST /onboarding/configureWebhook';
const GET_VERIFICATION = 'GET /onboarding/getVerification/:sessionId';
const SIGNING_SECRET = `whsec-e2e-${crypto.randomBytes(16).toString('hex')}`;
const FLOOD_COUNT = Number(process.env.TRIGGER_FLOOD_COUNT || 400);
const FLOOD_CONCURRENCY = 20;

const STEP_TIMEOUT = 15 * 60 * 1000;
const SETUP_TIMEOUT = 45 * 60 * 1000;

const log = (msg) => util.defaultLog(`[trigger-acknowledge] ${msg}`);

const sign = (raw) => crypto.createHmac('sha256', SIGNING_SECRET).update(raw).digest('hex');

/** POSTs a body signed as the provider signs it; never throws on an HTTP status. */
async function deliverSigned(url, body) {
	const raw = JSON.stringify(body);
	try {
		return await postJson(url, raw, { signature: sign(raw) });
	} catch (error) {
		return { status: null, data: String(error?.cause?.code ?? error?.message ?? error) };
	}
}

/** Waits for `expected` finished executions and no further one; returns the newest one's id. */
const settle = async (server, workflowId, expected, opts) => (await settleCount(server, workflowId, expected, { fresh: 1, timeoutMs: 180000, ...opts }))[0];

/** Runs `worker` over `items` with at most `limit` at once; the results in the items' order. */
async function pool(items, limit, worker) {
	const results = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const index = next++;
				results[index] = await worker(items[index], index);
			}
		}),
	);
	return results;
}

const versions = (process.env.N8N_E2E_VERSIONS || 'v2,v1').split(',').map((v) => v.trim()).filter(Boolean);

function defineSuite(version) {
	const label = version === 'v2' ? 'n8n 2.x' : 'n8n 1.x';
	describe(`Trigger answers in a running ${label} (${version}): 2xx only for what is started or safe to forget`, () => {
		let sandbox;
		let instance;
		let server;
		const ids = {};
		const urls = {};
		const hooks = { qes: crypto.randomUUID(), results: crypto.randomUUID(), payments: crypto.randomUUID(), unsigned: crypto.randomUUID() };
		let qesSecret;
		let failed = false;

		before(
			async () => {
				try {
					const manifest = packageManifest();
					if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
					sandbox = await startSandbox({ port: 0, host: '127.0.0.1', config: { latencyMs: 0 } });
					instance = await createInstance(version, { name: 'trigger-acknowledge' });
					const port = await util.freePort();
					server = await instance.startServer({ port, env: serverEnv(port) });
					await server.ensureLoggedIn();
					const [apiId, webhookId] = await server.createCredentials([
						{
							name: 'Verification sandbox (e2e)',
							type: 'verificationServicesApi',
							data: { environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl, apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID },
						},
						{ name: 'Provider webhook secret (e2e)', type: 'verificationServicesWebhookApi', data: { signingSecret: SIGNING_SECRET } },
					]);
					const api = { verificationServicesApi: { id: apiId, name: 'Verification sandbox (e2e)' } };
					const signed = { verificationServicesWebhookApi: { id: webhookId, name: 'Provider webhook secret (e2e)' } };
					const resultsType = `${PACKAGE}.verificationWebhookTrigger`;
					[ids.qes, ids.results, ids.payments, ids.unsigned] = await server.createWorkflows([
						chain(`QES, completed only (${version})`, [
							node({ name: QES_NAME, type: `${PACKAGE}.verificationQesTrigger`, typeVersion: 1, webhookId: hooks.qes, parameters: { options: { fetchVerification: true, onlyStatuses: 'completed' } }, credentials: api }),
							noOp('No Operation'),
						]),
						chain(`Signed results (${version})`, [
							node({ name: RESULTS_NAME, type: resultsType, typeVersion: 1, webhookId: hooks.results, parameters: {}, credentials: signed }),
							noOp('No Operation'),
						]),
						chain(`Payment results (${version})`, [
							node({ name: RESULTS_NAME, type: resultsType, typeVersion: 1, webhookId: hooks.payments, parameters: { events: 'paymentResult' }, credentials: signed }),
							noOp('No Operation'),
						]),
						chain(`Payment results, unsigned ones confirmed with the API (${version})`, [
							node({ name: RESULTS_NAME, type: resultsType, typeVersion: 1, webhookId: hooks.unsigned, parameters: { events: 'paymentResult', unsignedPayments: 'confirm' }, credentials: { ...signed, ...api } }),
							noOp('No Operation'),
						]),
					]);
					for (const key of Object.keys(hooks)) urls[key] = `http://127.0.0.1:${port}/webhook/${hooks[key]}/webhook`;

					await server.activateWorkflow(ids.qes);
					await waitForActivation({ sandbox, server, workflowId: ids.qes, nodeName: QES_NAME, url: urls.qes, configureRoute: CONFIGURE, configureCount: 1, secretHeader: SECRET_HEADER });
					qesSecret = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];
					for (const key of ['results', 'payments', 'unsigned']) {
						await server.activateWorkflow(ids[key]);
						await waitUntil(`${key}: the production URL answers an unsigned POST with 401`, async () => (await postJson(urls[key], { probe: true })).status === 401);
					}
				} catch (error) {
					failed = true;
					throw error;
				}
			},
			{ timeout: SETUP_TIMEOUT },
		);

		after(async () => await closeSuite({ instance, sandbox, failed, log: (line) => log(`${version}: ${line}`) }), { timeout: 2 * 60 * 1000 });

		function check(name, fn) {
			test(name, { timeout: STEP_TIMEOUT }, async () => {
				try {
					await fn();
				} catch (error) {
					failed = true;
					if (server) error.message += `\n--- n8n server log (tail) ---\n${server.readLog().split('\n').slice(-30).join('\n')}`;
					throw error;
				}
			});
		}

		check('QES, a ping without a status while Get Verification hangs, answers 500 or 429: answered 503, nothing starts; its resend with a healthy API starts one execution', async () => {
			// The emulator's session qes-completed-001 is completed; each case's ping is another body.
			const ping = (what) => postJson(urls.qes, { event: 'qes.status', sessionId: 'qes-completed-001', case: what }, { [SECRET_HEADER]: qesSecret });
			const set = async (failures) => assert.equal((await control(sandbox, 'POST', '/config', { failures })).status, 200);
			const cases = [
				['hangs', { route: GET_VERIFICATION, hang: true }],
				['answers 500', { route: GET_VERIFICATION, status: 500 }],
				['answers 429 with Retry-After 2', { route: GET_VERIFICATION, status: 429, retryAfter: 2 }],
			];
			const seen = [];
			let lastId;
			for (const [index, [what, failure]] of cases.entries()) {
				await set([failure]);
				const first = await ping(what);
				seen.push([what, first.status, first.data]);
				assert.equal(first.status, 503, `${what}: ${JSON.stringify(first.data)}`);
				await util.sleep(1000);
				assert.equal(await countExecutions(server, ids.qes), index, `${what}: nothing started`);
				await set([]);
				const resend = await ping(what);
				seen.push([`${what}, resent`, resend.status, resend.data]);
				assert.equal(resend.status, 200, `${what}, resent: ${JSON.stringify(resend.data)}`);
				lastId = await settle(server, ids.qes, index + 1);
			}
			log(`${version}: QES answers ${JSON.stringify(seen)}`);
			const execution = await server.getExecution(lastId);
			const [item] = nodeOutput(execution.data, QES_NAME);
			assert.equal(item.verification?.data?.status, 'completed', 'started with the fetched result');
		});

		check('Payment Results: signed payment results with statuses the list does not name (REFUNDED, FAILURE_ACCOUNT_CLOSED) start one execution each', async () => {
			const answers = [];
			for (const status of ['REFUNDED', 'FAILURE_ACCOUNT_CLOSED']) {
				const res = await deliverSigned(urls.payments, { referenceId: `ref-${status}-${version}`, status, statusReasonInformation: 'from the bank', timestamp: new Date().toISOString() });
				answers.push([status, res.status, res.data]);
			}
			log(`${version}: unknown payment statuses answered ${JSON.stringify(answers)}`);
			assert.deepEqual(answers.map(([, status, data]) => [status, data?.started]), [[200, true], [200, true]]);
			const lastId = await settle(server, ids.payments, 2);
			const [item] = nodeOutput((await server.getExecution(lastId)).data, RESULTS_NAME);
			assert.deepEqual([item.resultType, item.status, item.paymentOutcome], ['paymentResult', 'FAILURE_ACCOUNT_CLOSED', 'failed']);
		});

		check('an unsigned payment result: 401 by default; with Unsigned Payment Results = Confirm With the API it starts with the API\'s status, not the body\'s', async () => {
			const referenceId = `ref-unsigned-${version}`;
			const paymentsBefore = await countExecutions(server, ids.payments);
			const auth = await (await util.freshFetch(`${sandbox.baseUrl}/auth`, {
				method: 'POST',
				headers: { 'Api-Key': SANDBOX_API_KEY, 'Customer-Id': SANDBOX_CUSTOMER_ID, 'content-type': 'application/x-www-form-urlencoded' },
				body: '',
			})).json();
			const initiated = await util.freshFetch(`${sandbox.baseUrl}/payments/initiate`, {
				method: 'POST',
				headers: { authorization: `Bearer ${auth.access_token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ referenceId, transactionDescription: 'Order', returnUrl: 'https://shop.example/back', IBAN: 'DE89370400440532013000', currency: 'EUR', amount: '49.90' }),
			});
			assert.equal(initiated.status, 200, await initiated.text());
			assert.equal((await control(sandbox, 'POST', `/payments/${referenceId}/status`, { status: 'FAILURE_DECLINED', deliver: false })).status, 200);

			const claim = { referenceId, status: 'SUCCESS', statusReasonInformation: 'paid', paymentOutcome: 'succeeded' };
			const refused = await postJson(urls.payments, claim);
			const unknown = await postJson(urls.unsigned, { ...claim, referenceId: `ref-nobody-${version}` });
			const confirmed = await postJson(urls.unsigned, claim);
			log(`${version}: unsigned payment result: default ${refused.status}, unknown payment ${unknown.status}, confirmed ${confirmed.status} ${JSON.stringify(confirmed.data)}`);
			assert.deepEqual([refused.status, unknown.status, confirmed.status], [401, 401, 200]);
			const lastId = await settle(server, ids.unsigned, 1);
			assert.equal(await countExecutions(server, ids.payments), paymentsBefore, 'the default workflow started nothing');
			const [item] = nodeOutput((await server.getExecution(lastId)).data, RESULTS_NAME);
			assert.deepEqual([item.referenceId, item.status, item.paymentOutcome, item.signed, item.statusReasonInformation], [referenceId, 'FAILURE_DECLINED', 'failed', false, 'Payment failure declined']);
		});

		check('a genuinely signed journey result whose timestamp is 30 days old is refused with 400 and starts nothing', async () => {
			const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
			const res = await deliverSigned(urls.results, { transactionId: `tx-old-${version}`, customerId: 'c', timestamp: old, status: 'complete', success: 'PASS' });
			log(`${version}: 30-day-old result answered ${res.status} ${JSON.stringify(res.data)}`);
			assert.equal(res.status, 400, JSON.stringify(res.data));
			await util.sleep(3000);
			assert.equal(await countExecutions(server, ids.results), 0, 'nothing started');
		});

		check(`a flood of ${FLOOD_COUNT} distinct signed journey results, ${FLOOD_CONCURRENCY} at a time: each answered 2xx started exactly once; a copy of the first then starts nothing`, async () => {
			const bodies = Array.from({ length: FLOOD_COUNT }, (_, i) => ({
				transactionId: `tx-flood-${version}-${String(i).padStart(5, '0')}`,
				timestamp: new Date().toISOString(),
				status: 'complete',
				success: 'PASS',
			}));
			const before = await countExecutions(server, ids.results);
			const started = Date.now();
			let pending = bodies.map((_, i) => i);
			const tally = {};
			// A provider resends what it did not get a 2xx for, 6 more times.
			for (let round = 0; round < 6 && pending.length > 0; round++) {
				const answers = await pool(pending, FLOOD_CONCURRENCY, async (i) => await deliverSigned(urls.results, bodies[i]));
				for (const a of answers) tally[`${round}:${a.status}`] = (tally[`${round}:${a.status}`] ?? 0) + 1;
				pending = pending.filter((_, k) => !(answers[k].status >= 200 && answers[k].status < 300));
			}
			const sentMs = Date.now() - started;
			assert.deepEqual(pending, [], 'every delivery was answered 2xx in the end');
			await settle(server, ids.results, before + FLOOD_COUNT, { timeoutMs: 10 * 60 * 1000, quietMs: 5000 });
			log(`${version}: flood of ${FLOOD_COUNT}: answers ${JSON.stringify(tally)}, sent in ${sentMs} ms, all executions done after ${Date.now() - started} ms`);

			const copy = await deliverSigned(urls.results, bodies[0]);
			assert.equal(copy.status, 200);
			assert.deepEqual(copy.data, { received: true, started: false, reason: 'duplicate' }, 'the copy of the first is a duplicate');
			await util.sleep(3000);
			assert.equal(await countExecutions(server, ids.results), before + FLOOD_COUNT, 'the copy started nothing');
		});
	});
}

for (const version of versions) defineSuite(version);

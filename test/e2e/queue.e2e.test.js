'use strict';
// n8n's queue mode with this package, as README's "Queue mode" section sets it up (test/e2e/lib/queue.js):
// PostgreSQL 15, Redis, a main, two workers (concurrency 5) and a webhook processor, each with the
// package installed into its own ~/.n8n/nodes and the same N8N_ENCRYPTION_KEY. One topology start, then:
// batches run on the workers, the token is reused across workers, 20 executions x 10 items share a
// 20 req/s quota without losing an item, and the QES trigger registers and runs through the webhook
// processor.
//
//   npm run build && npm run test:queue          (n8n 2.x only; needs postgresql-15 and redis-server)
//
// Skipped with the reason when Postgres or Redis cannot be started (npm test stops at its start then).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { startEmulator, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../bench/lib/emulator');
const { fireExecutions, setUpManyExecutions } = require('../../bench/lib/many-executions');
const { packageManifest, nodeOutput } = require('./lib/instance');
const { queueModeUnavailable, startQueueTopology, executionsStartedBy } = require('./lib/queue');
const { node, noOp, chain } = require('./lib/workflows');
const util = require('./lib/util');
const { storedWebhook, routeCount, emulatorPing, waitUntil, executions, settleExecutions } = require('./trigger-helpers');

const STEP_TIMEOUT = 5 * 60 * 1000;
const SETUP_TIMEOUT = 20 * 60 * 1000;
const RATE = 20;
const log = (msg) => util.defaultLog(`[queue] ${msg}`);

const skip = queueModeUnavailable();

describe('queue mode: main, 2 workers, webhook processor (n8n 2.x)', { skip: skip || false }, () => {
	let emulator;
	let topology;
	let failed = false;
	const started = Date.now();

	function step(name, fn) {
		test(name, { timeout: STEP_TIMEOUT }, async (t) => {
			if (failed) return t.skip('an earlier step failed');
			try {
				await fn(t);
			} catch (error) {
				failed = true;
				const logs = [topology?.main, ...(topology?.workers ?? []), topology?.webhook].filter(Boolean).map((p) => p.logFile);
				if (logs.length) error.message += `\nn8n logs: ${logs.join(' ')}`;
				throw error;
			}
		});
	}

	const workerLoad = () => topology.workers.map((w) => executionsStartedBy(w).length);

	before(
		async () => {
			const manifest = packageManifest();
			if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
			emulator = await startEmulator();
			topology = await startQueueTopology({ workers: 2, concurrency: 5, log });
			await setUpManyExecutions({
				instance: topology.main.instance,
				server: topology.main,
				emulatorBaseUrl: emulator.baseUrl,
				apiKey: SANDBOX_API_KEY,
				customerId: SANDBOX_CUSTOMER_ID,
			});
			log(`topology up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
		},
		{ timeout: SETUP_TIMEOUT },
	);

	after(
		async () => {
			await topology?.stop();
			await emulator?.stop();
			log(`suite took ${((Date.now() - started) / 1000).toFixed(0)} s`);
		},
		{ timeout: 2 * 60 * 1000 },
	);

	step('a batch of webhook executions runs on the workers, the token is exchanged at most once per worker', async () => {
		await emulator.control.prepare({ latencyMs: 20, rateLimit: 0 });
		const result = await fireExecutions({ webhookBase: topology.webhookUrl, control: emulator.control, executions: 6, items: 5, run: 'workers' });
		assert.equal(result.failedCalls, 0, result.callErrors.join('\n'));
		assert.equal(result.okItems, 30);
		assert.equal(result.succeeded, 30);
		const load = workerLoad();
		log(`executions per worker: ${load.join(', ')}; /auth ${result.authCalls}`);
		assert.equal(load.reduce((a, b) => a + b, 0), 6, 'every execution ran on a worker');
		assert.doesNotMatch(topology.main.readLog(), /Worker started execution/);
		assert.ok(result.authCalls >= 1 && result.authCalls <= load.filter((n) => n > 0).length, `/auth calls: ${result.authCalls}`);
	});

	step('warm workers reuse the token: a second batch makes no new exchange (at most one, by a worker that had not run yet)', async () => {
		await emulator.control.prepare({ latencyMs: 20, rateLimit: 0 });
		const result = await fireExecutions({ webhookBase: topology.webhookUrl, control: emulator.control, executions: 10, items: 3, run: 'warm' });
		assert.equal(result.succeeded, 30);
		const load = workerLoad();
		log(`executions per worker so far: ${load.join(', ')}`);
		assert.ok(load.every((n) => n > 0), `both workers ran executions: ${load.join(', ')}`);
		// A worker that had not run before the first batch may exchange once here.
		assert.ok(result.authCalls <= 1, `/auth calls: ${result.authCalls}`);
	});

	step(`shared quota: 20 executions x 10 items under ${RATE} req/s, nothing lost`, async () => {
		await emulator.control.prepare({ latencyMs: 50, rateLimit: RATE });
		const result = await fireExecutions({ webhookBase: topology.webhookUrl, control: emulator.control, executions: 20, items: 10, run: 'quota' });
		const ratio = result.durationMs / ((200 / RATE) * 1000);
		log(`20 x 10 @ ${RATE}/s: ${(result.durationMs / 1000).toFixed(2)} s (${ratio.toFixed(2)}x N/rate), 429 x ${result.status429}, lost ${result.lost}`);
		assert.equal(result.failedCalls, 0, result.callErrors.join('\n'));
		assert.equal(result.succeeded, 200);
		assert.equal(result.lost, 0);
		assert.equal(result.duplicated, 0);
		assert.equal(result.errorItems, 0);
		// Each worker paces itself and backs off on 429: far fewer 429 than items (timing is the bench's job).
		assert.ok(result.status429 < 100, `429 x ${result.status429}`);
	});

	step('the QES trigger registers the webhook processor URL; a genuine ping starts one execution on a worker', async () => {
		await emulator.control.prepare({ latencyMs: 0, rateLimit: 0 });
		const webhookId = crypto.randomUUID();
		const credential = { id: 'ManyExecCred0001', name: 'Many executions credential' };
		const workflow = chain('QES trigger (queue)', [
			node({
				name: 'QES Onboarding Trigger',
				type: 'n8n-nodes-verification-services.verificationQesTrigger',
				webhookId,
				parameters: { options: { fetchVerification: true } },
				credentials: { verificationServicesApi: credential },
			}),
			noOp('No Operation'),
		]);
		const [workflowId] = await topology.main.instance.importWorkflows([workflow]);
		const before = workerLoad().reduce((a, b) => a + b, 0);
		await topology.main.activateWorkflow(workflowId);
		const productionUrl = `${topology.webhookUrl}webhook/${webhookId}/webhook`;
		await waitUntil('the trigger registered its URL', async () => (await storedWebhook(emulator))?.url === productionUrl, { timeoutMs: 60000 });
		assert.equal(await routeCount(emulator, 'POST /onboarding/configureWebhook'), 1);
		assert.equal((await executions(topology.main, workflowId)).length, 0);

		const delivery = await emulatorPing(emulator, 'qes-completed-001', 'completed');
		assert.equal(delivery.delivered, true, JSON.stringify(delivery));
		assert.ok(delivery.status >= 200 && delivery.status < 300, `status ${delivery.status}`);
		const list = await settleExecutions(topology.main, workflowId, 1);
		assert.equal(list.length, 1, `exactly one execution: ${JSON.stringify(list)}`);
		assert.equal(list[0].status, 'success');
		assert.equal(workerLoad().reduce((a, b) => a + b, 0), before + 1, 'the execution ran on a worker');
		const execution = await topology.main.getExecution(list[0].id);
		const out = nodeOutput(execution.data, 'QES Onboarding Trigger');
		assert.equal(out?.[0]?.sessionId, 'qes-completed-001');
		assert.equal(out?.[0]?.verification?.data?.status, 'completed');
	});
});

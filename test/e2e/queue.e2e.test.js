'use strict';
// n8n's queue mode with this package, as README's "Queue mode" section sets it up (test/e2e/lib/queue.js):
// PostgreSQL 15, Redis, a main, two workers (concurrency 5) and a webhook processor, each with the
// package installed into its own ~/.n8n/nodes and the same N8N_ENCRYPTION_KEY. One topology start, then:
// batches run on the workers, the token is reused across workers, 20 executions x 10 items share a
// 20 req/s quota without losing an item, and the QES trigger registers and runs through the webhook
// processor. Last, the customer book recipe (examples/customer-book-postgres.json) screens 2,000
// customers from a table in the topology's Postgres, in pages of 500 on the workers; one worker is
// killed (SIGKILL) in the middle of a page and restarted, and a second run finishes the book.
//
//   npm run build && npm run test:queue          (n8n 2.x only; needs postgresql-15 and redis-server)
//
// Skipped with the reason when Postgres or Redis cannot be started (npm test stops at its start then).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { startEmulator, AML_ROUTE, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../bench/lib/emulator');
const { fireExecutions, setUpManyExecutions } = require('../../bench/lib/many-executions');
const { packageManifest, nodeOutput } = require('./lib/instance');
const { queueModeUnavailable, startQueueTopology, executionsStartedBy } = require('./lib/queue');
const book = require('./lib/customer-book');
const { node, noOp, chain } = require('./lib/workflows');
const util = require('./lib/util');
const { storedWebhook, routeCount, emulatorPing, waitUntil, executions, settleExecutions } = require('./trigger-helpers');

const STEP_TIMEOUT = 5 * 60 * 1000;
const SETUP_TIMEOUT = 20 * 60 * 1000;
const RATE = 20;
/**
 * n8n's webhook processor now and then never answers a call whose execution ran (fireExecutions
 * `unanswered`): the steps judge the executions by what the emulator received, and wait this long for an answer.
 */
const ANSWER_TIMEOUT = 90 * 1000;
const log = (msg) => util.defaultLog(`[queue] ${msg}`);

const skip = queueModeUnavailable();

describe('queue mode: main, 2 workers, webhook processor (n8n 2.x)', { skip: skip || false }, () => {
	let emulator;
	let topology;
	/** The emulator credential's reference { id, name } in n8n. */
	let credential;
	let failed = false;
	const started = Date.now();

	function step(name, fn, { timeout = STEP_TIMEOUT } = {}) {
		test(name, { timeout }, async (t) => {
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
	const fire = async (load) => {
		const result = await fireExecutions({ webhookBase: topology.webhookUrl, control: emulator.control, timeoutMs: ANSWER_TIMEOUT, ...load });
		if (result.unanswered) log(`${load.run}: ${result.unanswered} webhook call(s) never answered by n8n`);
		return result;
	};

	before(
		async () => {
			const manifest = packageManifest();
			if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
			emulator = await startEmulator();
			topology = await startQueueTopology({ workers: 2, concurrency: 5, log });
			({ credential } = await setUpManyExecutions({
				server: topology.main,
				emulatorBaseUrl: emulator.baseUrl,
				apiKey: SANDBOX_API_KEY,
				customerId: SANDBOX_CUSTOMER_ID,
			}));
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
		const result = await fire({ executions: 6, items: 5, run: 'workers' });
		assert.equal(result.failedCalls, 0, result.callErrors.join('\n'));
		assert.equal(result.errorItems, 0);
		assert.equal(result.succeeded, 30);
		const load = workerLoad();
		log(`executions per worker: ${load.join(', ')}; /auth ${result.authCalls}`);
		assert.equal(load.reduce((a, b) => a + b, 0), 6, 'every execution ran on a worker');
		assert.doesNotMatch(topology.main.readLog(), /Worker started execution/);
		assert.ok(result.authCalls >= 1 && result.authCalls <= load.filter((n) => n > 0).length, `/auth calls: ${result.authCalls}`);
	});

	step('warm workers reuse the token: a second batch makes no new exchange (at most one, by a worker that had not run yet)', async () => {
		await emulator.control.prepare({ latencyMs: 20, rateLimit: 0 });
		const result = await fire({ executions: 10, items: 3, run: 'warm' });
		assert.equal(result.succeeded, 30);
		const load = workerLoad();
		log(`executions per worker so far: ${load.join(', ')}`);
		assert.ok(load.every((n) => n > 0), `both workers ran executions: ${load.join(', ')}`);
		// A worker that had not run before the first batch may exchange once here.
		assert.ok(result.authCalls <= 1, `/auth calls: ${result.authCalls}`);
	});

	step(`shared quota: 20 executions x 10 items under ${RATE} req/s, nothing lost`, async () => {
		await emulator.control.prepare({ latencyMs: 50, rateLimit: RATE });
		const result = await fire({ executions: 20, items: 10, run: 'quota' });
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
		const workflow = chain('QES trigger (queue)', [
			node({
				name: 'QES Onboarding Trigger',
				type: 'n8n-nodes-verification-services.verificationServicesTrigger',
				typeVersion: 2,
				webhookId,
				parameters: { source: 'qesStatus', options: { fetchVerification: true } },
				credentials: { verificationServicesApi: credential },
			}),
			noOp('No Operation'),
		]);
		const [workflowId] = await topology.main.createWorkflows([workflow]);
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

	step('customer book: 2,000 customers in pages on the workers, a worker killed mid-page, a second run finishes: nobody lost, no wrong row', async () => {
		// 200 req/s: a page of 500 takes ~10 s beside three others, well inside the 45 s lease.
		await emulator.control.prepare({ latencyMs: 20, rateLimit: 200 });
		const COUNT = 2000;
		const LEASE_SECONDS = 45;
		const { client, customers, close } = await book.createBook(topology.postgres, { count: COUNT });
		try {
			const workflowId = await book.createRecipe({
				server: topology.main,
				emulatorBaseUrl: emulator.baseUrl,
				postgres: topology.postgres,
				settings: { pageUrl: `${topology.webhookUrl}webhook/customer-book/page`, leaseSeconds: LEASE_SECONDS },
			});
			const tally = book.requestTally(emulator.control);
			const started = workerLoad();
			const firstNight = book.runNight(topology.main, workflowId);
			firstNight.catch(() => {}); // awaited below; a rejection before then must not go unhandled

			// In the middle of a page: some answers written or asked, most customers still to come.
			const victim = await waitUntil(
				'a worker in the middle of a page',
				async () => {
					const asked = (await emulator.control.stats()).counts[AML_ROUTE] ?? 0;
					if (asked < 300) return null;
					return topology.workers.find((w, i) => executionsStartedBy(w).length > started[i]) ?? null;
				},
				{ timeoutMs: 120000, intervalMs: 100 },
			);
			await victim.kill();
			const killedAt = Date.now();
			const atKill = await book.progress(client);
			log(`${victim.role} killed (SIGKILL) at ${JSON.stringify(atKill)}`);
			await victim.restart();

			// The other pages finish; the dead page's customers wait for their lease to lapse.
			await waitUntil(
				'every claimed customer written or its lease lapsed',
				async () => {
					const p = await book.progress(client);
					return p.unclaimed === 0 && p.leased === 0 && p.lapsed > 0 ? p : null;
				},
				{ timeoutMs: (LEASE_SECONDS + 120) * 1000, intervalMs: 500 },
			);
			const afterFirst = await book.progress(client);
			log(`after the first run: ${JSON.stringify(afterFirst)}`);

			const first = await firstNight;
			assert.equal(first.status, 'success', 'the first run started every page');
			const secondStarted = await book.dbNow(client);
			const dueAtSecond = (await book.nightLeft(client, secondStarted)).due; // the dead pages' customers and the refused ones
			const second = await book.runNight(topology.main, workflowId);
			assert.equal(second.status, 'success', JSON.stringify(second.data?.resultData?.error ?? {}));
			await book.waitForNight(client, secondStarted, { timeoutMs: 180000 });
			// n8n does not run the dead page again: its execution fails once the queue declares the job stalled.
			const pages = await waitUntil(
				'every page execution over',
				async () => {
					const list = (await topology.main.listExecutions(workflowId, { limit: 100 })).filter((e) => e.mode === 'webhook');
					return list.every((e) => !['new', 'running', 'waiting'].includes(e.status)) ? list : null;
				},
				{ timeoutMs: 120000, intervalMs: 1000 },
			);
			const failedPages = pages.filter((e) => e.status !== 'success');

			await tally.poll();
			const audit = await book.auditBook({ client, customers, tally });
			// The dead page's customers: claimed by it and again by the second run (the refused ones are tried by every run).
			const killedPage = audit.rows.filter((r) => r.claims === 2 && r.name !== book.REFUSED).map((r) => r.name);
			const askedBeforeKill = audit.askedTwice.filter((a) => Math.min(...a.at) <= killedAt);
			log(
				`${pages.length} page executions, failed: ${JSON.stringify(failedPages.map((e) => [e.id, e.status]))}; ` +
					`book of ${audit.total}: screened ${audit.screened}, refused ${audit.refused.length} (${audit.refused[0]?.error}), lost ${audit.lost.length}, ` +
					`wrong row ${audit.wrongRow.length}, claims ${JSON.stringify(audit.claims)}; answered twice: ${audit.askedTwice.length} names ` +
					`(${audit.extraRequests} extra answers; the killed worker's pages held ${killedPage.length} customers; first answered before the kill: ${askedBeforeKill.length}); ` +
					`the refused name asked ${audit.refusedRequests} times`,
			);
			assert.deepEqual(audit.lost, [], 'nobody lost');
			assert.deepEqual(audit.wrongRow, [], 'no answer written to another customer');
			assert.deepEqual(audit.leased, [], 'no lease left');
			assert.equal(audit.refused.length, 2);
			for (const r of audit.refused) assert.match(r.error, /403/, `the refused customer's row says why: ${r.error}`);
			// Only the dead page's customers are claimed twice, and only those it had asked the API about are asked twice.
			assert.ok(killedPage.length > 0 && killedPage.length <= 1000, `customers claimed twice: ${killedPage.length}`);
			assert.equal(failedPages.length, Math.ceil(killedPage.length / 500), 'n8n recorded the dead pages as failed');
			assert.equal(pages.length, COUNT / 500 + Math.ceil(dueAtSecond / 500), 'each run started one page per 500 due customers');
			assert.equal(audit.claims[1] + audit.claims[2], COUNT, JSON.stringify(audit.claims));
			for (const a of audit.askedTwice) {
				assert.ok(killedPage.includes(a.name), `${a.name} asked ${a.requests} times but not on the killed page`);
				assert.ok(Math.min(...a.at) <= killedAt, `${a.name}: first asked after the kill`);
			}
			assert.equal(askedBeforeKill.length, audit.askedTwice.length);
			// ... and every customer of the dead pages whom the API had answered before the kill is answered again (names of one customer each).
			const answered = tally.byName();
			const unique = (name) => name.startsWith('Clean Customer');
			const answeredBeforeKill = killedPage.filter((name) => unique(name) && (answered.get(name) ?? []).some((a) => a.at <= killedAt));
			assert.deepEqual(audit.askedTwice.filter((a) => unique(a.name)).map((a) => a.name).sort(), answeredBeforeKill.sort());
			assert.ok(audit.askedTwice.length < killedPage.length + 10, 'at most the killed page was asked again');
		} finally {
			await close();
		}
	}, { timeout: 10 * 60 * 1000 });
});


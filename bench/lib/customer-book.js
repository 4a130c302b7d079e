'use strict';
// The customer book rows of `npm run bench` (group `book`, B-*): bench/README.md's "Customer book" says
// what a night runs, measures and audits, and the fault run.

const { AML_ROUTE } = require('./emulator');
const { startSampler, treeRssKb, mainThreadCpuMs } = require('./sampler');
const book = require('../../test/e2e/lib/customer-book');
const { sleep } = require('../../test/e2e/lib/util');
const { createInstance } = require('../../test/e2e/lib/instance');
const { queueModeUnavailable, startQueueTopology, startPostgres } = require('../../test/e2e/lib/queue');

const PAGE_PATH = 'webhook/customer-book/page';
/** The 20,000 requests the emulator keeps last 200 s at 100 req/s: read them well before. */
const TALLY_EVERY_MS = 20000;
/** The night's course: read every 2 s (most customers leased at once), logged every 10 s with the memory of every n8n process. */
const COURSE_EVERY_MS = 2000;
const COURSE_LOG_EVERY = 5;

/** Pages at once: queue mode's 2 workers x concurrency 5; one `n8n start` the same through its production concurrency limit. */
const WORKERS = 2;
const WORKER_CONCURRENCY = 5;

/**
 * One regular n8n (`n8n start`) with its own Postgres for the book, or the queue topology; the processes
 * to sample. `saveOnSuccess` ('all' | 'none') is n8n's EXECUTIONS_DATA_SAVE_ON_SUCCESS for every process.
 */
async function startMode(mode, { log, saveOnSuccess }) {
	if (mode === 'regular') {
		const postgres = await startPostgres({ log });
		try {
			const instance = await createInstance('v2', {
				name: 'bench-book',
				log,
				env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(WORKERS * WORKER_CONCURRENCY), EXECUTIONS_DATA_SAVE_ON_SUCCESS: saveOnSuccess },
			});
			const server = await instance.startServer();
			const stop = async () => {
				await instance.stop();
				await postgres.stop();
			};
			return { instance, server, postgres, pageUrl: `${server.url}/${PAGE_PATH}`, processes: { n8n: () => server.pid }, stop };
		} catch (error) {
			await postgres.stop();
			throw error;
		}
	}
	const topology = await startQueueTopology({ name: 'bench-book', workers: WORKERS, concurrency: WORKER_CONCURRENCY, log, env: { EXECUTIONS_DATA_SAVE_ON_SUCCESS: saveOnSuccess } });
	const processes = { main: () => topology.main.pid, webhook: () => topology.webhook.child.pid };
	for (const w of topology.workers) processes[w.role] = () => w.child.pid;
	return { instance: topology.main.instance, server: topology.main, postgres: topology.postgres, pageUrl: `${topology.webhookUrl}${PAGE_PATH}`, processes, stop: topology.stop, n8nDatabase: true };
}

/** A sampler of the peak RSS of each named process; `stop()` gives the peaks in MB by name. */
function sampleEach(processes) {
	const samplers = Object.entries(processes).map(([name, pid]) => [name, startSampler(pid, { intervalMs: 250 })]);
	return { stop: () => Object.fromEntries(samplers.map(([name, s]) => [name, Math.round(s.stop().peakKb / 1024)])) };
}

/** Each named process's main-thread CPU time so far, in ms. */
function mainThreadsCpuMs(processes) {
	return Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, mainThreadCpuMs(pid())]));
}

/** Size of the page executions' stored data in n8n's database (queue mode: n8n's Postgres). */
async function executionDataSize(postgres) {
	const client = await book.connect(postgres, postgres.database);
	try {
		// With EXECUTIONS_DATA_SAVE_ON_SUCCESS=none a page's data is still written, then marked deleted for n8n's pruner to remove later.
		const { rows } = await client.query(
			'SELECT count(*)::int AS executions, count(*) FILTER (WHERE e."deletedAt" IS NOT NULL)::int AS marked_deleted, max(length(d.data))::int AS max_bytes, avg(length(d.data))::int AS avg_bytes ' +
				'FROM execution_data d JOIN execution_entity e ON e.id = d."executionId"',
		);
		return rows[0];
	} finally {
		await client.end();
	}
}

/** The fault: 429 storm for 30 s, then 503s for 30 s, then normal again. Resolves when over. */
async function faultMinute(control, log) {
	log('fault: 429 storm for 30 s');
	await control.config({ failures: [{ route: AML_ROUTE, status: 429, count: 1000000, retryAfter: 1 }] });
	await sleep(30000);
	log('fault: 503 for 30 s');
	await control.config({ failures: [{ route: AML_ROUTE, status: 503, count: 1000000 }] });
	await sleep(30000);
	await control.config({ failures: [] });
	log('fault over');
}

/**
 * One night of `count` customers in a started mode: runs the night until nothing is due (at most
 * `maxRuns` runs: a fault may leave customers with an error, which the next run tries again).
 */
async function runNight(env, { emulator, count, rate, latencyMs, maxRequestsPerSecond, fault, log }) {
	const { client, customers, close } = await book.createBook(env.postgres, { count });
	try {
		await emulator.control.prepare({ latencyMs, rateLimit: rate });
		const recipe = book.readRecipe();
		if (maxRequestsPerSecond > 0) Object.assign((recipe.nodes.find((n) => n.name === 'Check Individual').parameters.options ??= {}), { maxRequestsPerSecond });
		const workflowId = await book.createRecipe({ server: env.server, emulatorBaseUrl: emulator.baseUrl, postgres: env.postgres, settings: { pageUrl: env.pageUrl }, recipe });
		const tally = book.requestTally(emulator.control);
		// Each process at rest first (n8n, its task runner), so the peak shows what the night adds.
		const resting = sampleEach(env.processes);
		await sleep(2000);
		const idleMb = resting.stop();
		const samplers = sampleEach(env.processes);
		const cpuAtStart = mainThreadsCpuMs(env.processes);
		const poller = setInterval(() => void tally.poll().catch((e) => log(`tally: ${e.message}`)), TALLY_EVERY_MS);
		const started = performance.now();
		const startedAt = Date.now();
		const faultDone = fault ? sleep(((count / rate) * 1000) / 3).then(() => faultMinute(emulator.control, log)) : Promise.resolve();
		const runs = [];
		let peakLeased = 0;
		let ticks = 0;
		const course = setInterval(() => void readCourse(), COURSE_EVERY_MS);
		async function readCourse() {
			try {
				const p = await book.progress(client);
				peakLeased = Math.max(peakLeased, p.leased);
				if (++ticks % COURSE_LOG_EVERY) return;
				const mb = Object.fromEntries(Object.entries(env.processes).map(([name, pid]) => [name, Math.round(treeRssKb(pid()).total / 1024)]));
				log(`book ${count}: ${Math.round((performance.now() - started) / 1000)} s: screened ${p.screened}, leased ${p.leased}, MB ${JSON.stringify(mb)}`);
			} catch (e) {
				log(`course: ${e.message}`);
			}
		}
		try {
			for (let run = 1; run <= 5; run++) {
				const since = await book.dbNow(client);
				const execution = await book.runNight(env.server, workflowId);
				// The night run only posts the pages: the night is over when the table says so.
				await book.waitForNight(client, since);
				const p = await book.progress(client);
				runs.push({ status: execution.status, seconds: Math.round((performance.now() - started) / 1000), ...p });
				log(`book ${count}: run ${run} ${execution.status} after ${runs.at(-1).seconds} s: ${JSON.stringify(p)}`);
				await faultDone;
				if (p.screened + p.refused === p.total && p.refused <= Math.ceil(count / 1000)) break;
			}
		} finally {
			clearInterval(poller);
			clearInterval(course);
		}
		const durationMs = performance.now() - started;
		const memory = samplers.stop();
		const cpuAtEnd = mainThreadsCpuMs(env.processes);
		const eventLoopBusy = Object.fromEntries(Object.keys(cpuAtEnd).map((name) => [name, Number(((cpuAtEnd[name] - cpuAtStart[name]) / durationMs).toFixed(2))]));
		await tally.poll();
		const stats = await emulator.control.stats();
		const audit = await book.auditBook({ client, customers, tally });
		// Where the time went: the API's answers and 429s per 5 s of the night.
		const timeline = tally.timeline(startedAt, 5000);
		log(`book ${count}: per 5 s, answered/429: ${timeline.map((b) => `${b.answered}/${b.refused}`).join(' ')}`);
		return {
			count,
			rate,
			maxRequestsPerSecond,
			durationMs,
			ratio: durationMs / ((count / rate) * 1000),
			runs,
			status429: stats.status['429'] ?? 0,
			status503: stats.status['503'] ?? 0,
			authCalls: stats.counts['POST /auth'] ?? 0,
			amlRequests: stats.counts[AML_ROUTE] ?? 0,
			memoryMb: memory,
			idleMb,
			eventLoopBusy,
			timeline,
			peakLeased,
			lost: audit.lost.length,
			askedTwice: audit.askedTwice.length,
			extraRequests: audit.extraRequests,
			wrongRow: audit.wrongRow.length,
			refused: audit.refused.length,
			executionData: env.n8nDatabase ? await executionDataSize(env.postgres) : null,
		};
	} finally {
		await close();
	}
}

/**
 * The group: every size in every mode, then (with `fault`) one fault run of `faultSize` in queue mode.
 * @returns {Promise<object[]>} rows for renderCustomerBook
 */
async function runCustomerBook({ emulator, sizes, modes, rate, latencyMs, maxRequestsPerSecond = 0, fault, faultSize, saveOnSuccess = 'all', log }) {
	if (queueModeUnavailable()) {
		log(`customer book skipped: ${queueModeUnavailable()} (the book is a Postgres table)`);
		return [];
	}
	const rows = [];
	const plan = modes.map((mode) => ({ mode, nights: sizes.map((count) => ({ count, fault: false })) }));
	if (fault) {
		const queue = plan.find((p) => p.mode === 'queue') ?? (plan.push({ mode: 'queue', nights: [] }), plan.at(-1));
		queue.nights.push({ count: faultSize, fault: true });
	}
	for (const { mode, nights } of plan) {
		if (!nights.length) continue;
		const env = await startMode(mode, { log, saveOnSuccess });
		try {
			for (const night of nights) {
				const key = `B-${mode}-${night.count}${night.fault ? '-fault' : ''}${maxRequestsPerSecond > 0 ? `-max${maxRequestsPerSecond}` : ''}`;
				log(`${key}: ${night.count} customers @ ${rate}/s, ${latencyMs} ms${night.fault ? ', 429 storm and 503s for a minute' : ''}`);
				const result = await runNight(env, { emulator, count: night.count, rate, latencyMs, maxRequestsPerSecond, fault: night.fault, log });
				log(
					`${key}: ${(result.durationMs / 1000).toFixed(0)} s (${result.ratio.toFixed(2)}x N/rate) in ${result.runs.length} run(s), 429 ${result.status429}, /auth ${result.authCalls}, ` +
						`lost ${result.lost}, asked twice ${result.askedTwice}, wrong row ${result.wrongRow}, most customers leased at once ${result.peakLeased}, peak MB ${JSON.stringify(result.memoryMb)} (at rest before: ${JSON.stringify(result.idleMb)}), main thread busy ${JSON.stringify(result.eventLoopBusy)}` +
						(result.executionData ? `, execution data ${JSON.stringify(result.executionData)}` : ''),
				);
				rows.push({ key, mode, fault: night.fault, ...result });
			}
		} finally {
			await env.stop();
		}
	}
	return rows;
}

/** The rows as a markdown table. */
function renderCustomerBook(rows) {
	if (!rows.length) return '';
	const lines = ['', `Customer book (examples/customer-book-postgres.json: pages of 500, ${WORKERS * WORKER_CONCURRENCY} at a time; emulator limit and latency as shown)`, ''];
	lines.push('| key | mode | customers @ rate | time (x N/rate) | runs | 429 / 503 | /auth | lost | asked twice | wrong row | most leased at once | peak memory per n8n process (main thread busy: its CPU time / the night) |');
	lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
	for (const r of rows) {
		const memory = Object.entries(r.memoryMb)
			.map(([name, mb]) => `${name} ${mb} MB (${r.idleMb[name]} at rest)${r.eventLoopBusy ? `, main thread busy ${r.eventLoopBusy[name]}` : ''}`)
			.join(', ');
		lines.push(
			`| ${r.key} | ${r.mode === 'queue' ? 'queue, 2 workers x 5' : 'regular'}${r.fault ? ', fault minute' : ''}${r.maxRequestsPerSecond > 0 ? `, Max Requests per Second ${r.maxRequestsPerSecond}` : ''} | ${r.count} @ ${r.rate}/s | ` +
				`${(r.durationMs / 1000).toFixed(0)} s (${r.ratio.toFixed(2)}x) | ${r.runs.length} | ${r.status429} / ${r.status503} | ${r.authCalls} | ${r.lost} | ${r.askedTwice} | ${r.wrongRow} | ${r.peakLeased} | ${memory} |`,
		);
	}
	return `${lines.join('\n')}\n`;
}

module.exports = { runCustomerBook, renderCustomerBook };

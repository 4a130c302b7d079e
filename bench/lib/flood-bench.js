'use strict';
// The flood row of `npm run bench` (F-flood): what it sends, counts and measures is bench/README.md's
// "Flood row". Standalone (prints JSON):  node bench/lib/flood-bench.js   (build first: npm run build)

const crypto = require('node:crypto');
const path = require('node:path');

const { startSampler } = require('./sampler');
const { markdownTable, textTable } = require('./table');
const { createInstance } = require('../../test/e2e/lib/instance');
const { sleep, waitUntil } = require('../../test/e2e/lib/util');
const { post, pool, signed, resultsTrigger, executionCount } = require('./deliveries');
const { chain, noOp, webhookTrigger } = require('../../test/e2e/lib/workflows');

function floodSettings(env = process.env) {
	const num = (name, fallback) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : fallback);
	return {
		count: num('BENCH_FLOOD_COUNT', 2100),
		concurrency: num('BENCH_FLOOD_CONCURRENCY', 20),
		settleS: num('BENCH_FLOOD_SETTLE_S', 600),
		// Which runs first (BENCH_FLOOD_ORDER=trigger,plain): the machine's load drifts between the two.
		order: (env.BENCH_FLOOD_ORDER || 'plain,trigger').split(',').map((s) => s.trim()).filter((s) => s === 'plain' || s === 'trigger'),
		// Extra environment for the n8n servers, as JSON (e.g. {"N8N_EXPRESSION_ENGINE":"legacy"}).
		n8nEnv: env.BENCH_FLOOD_N8N_ENV ? JSON.parse(env.BENCH_FLOOD_N8N_ENV) : {},
	};
}

const count = (server, workflowId, status) => executionCount(server, { workflowId, ...(status ? { status } : {}) });

/** Waits until no execution of the workflow is new or running and the count has not moved for 10 s (or the time is up). */
async function settle(server, workflowId, settleMs) {
	const deadline = Date.now() + settleMs;
	let last = -1;
	let stableSince = Date.now();
	for (;;) {
		const total = await count(server, workflowId);
		const busy = await count(server, workflowId, ['new', 'running']);
		if (total !== last) {
			last = total;
			stableSince = Date.now();
		}
		if ((busy === 0 && Date.now() - stableSince >= 10000) || Date.now() > deadline) return { total, busy, timedOut: Date.now() > deadline };
		await sleep(1000);
	}
}

/** One target in a fresh n8n: its server, the flood, the counts and the peak memory. */
async function floodOne({ which, settings, log }) {
	const instance = await createInstance('v2', { name: `bench-flood-${which}`, log });
	let sampler;
	try {
		if (instance.package?.buildError) throw new Error(instance.package.buildError);
		const hook = crypto.randomUUID();
		const plainPath = `bench-flood-${hook.slice(0, 8)}`;
		let workflow;
		if (which === 'trigger') {
			workflow = chain('Bench flood, Verification Webhook Trigger', [await resultsTrigger(instance, { webhookId: hook }), noOp('No Operation')]);
		} else {
			workflow = chain('Bench flood, plain Webhook', [webhookTrigger('Webhook', plainPath, { responseMode: 'onReceived' }), noOp('No Operation')]);
		}
		const [workflowId] = await instance.importWorkflows([workflow]);
		const server = await instance.startServer({ env: settings.n8nEnv });
		const base = `${server.url}/`;
		await server.ensureLoggedIn();
		await server.activateWorkflow(workflowId);
		const url = which === 'trigger' ? `${base}webhook/${hook}/webhook` : `${base}webhook/${plainPath}`;
		const send = async (body) => (await post(url, body, signed(body))).status;
		// Signed probes, until one is answered 200; their executions are counted out below.
		let probe = 0;
		await waitUntil(`${which}: ${url} to be served`, async () => (await send({ probe: probe++ })) === 200);
		await sleep(3000);
		const probes = await count(server, workflowId);
		sampler = startSampler(() => server.pid);

		const tag = crypto.randomUUID().slice(0, 8);
		const statuses = {};
		const t0 = performance.now();
		await pool(settings.count, settings.concurrency, async (i) => {
			const status = await send({ transactionId: `tx-flood-${tag}-${i}`, timestamp: new Date().toISOString(), status: 'complete', success: 'PASS' });
			statuses[status] = (statuses[status] ?? 0) + 1;
		});
		const sendMs = performance.now() - t0;
		const settled = await settle(server, workflowId, settings.settleS * 1000);
		const memory = sampler.stop();
		sampler = undefined;
		const succeeded = (await count(server, workflowId, ['success'])) - probes;
		const ok = Object.entries(statuses).reduce((n, [status, k]) => (Number(status) >= 200 && Number(status) < 300 ? n + k : n), 0);
		const row = {
			which,
			sent: settings.count,
			ok,
			notOk: settings.count - ok,
			statuses,
			executions: settled.total - probes,
			succeeded,
			stuck: settled.busy,
			lost: Math.max(0, ok - succeeded),
			sendMs,
			peakRssMb: memory.peakKb / 1024,
			settleTimedOut: settled.timedOut,
		};
		log(`flood ${which}: ${JSON.stringify(row)}`);
		return row;
	} finally {
		sampler?.stop();
		await instance.stop().catch(() => {});
	}
}

async function runFloodBench({ log = () => {}, settings = floodSettings() }) {
	const rows = [];
	for (const which of settings.order) rows.push(await floodOne({ which, settings, log }));
	return { settings, rows };
}

const NAMES = { plain: "n8n's plain Webhook node (Respond: Immediately)", trigger: 'Verification Webhook Trigger' };

function floodRows(result) {
	return [
		['configuration', 'answered 2xx', 'answered otherwise (resent)', 'executions run', 'lost (2xx, no execution)', 'peak n8n RSS', 'sent in'],
		...result.rows.map((r) => [
			NAMES[r.which],
			`${r.ok}/${r.sent}`,
			`${r.notOk} ${JSON.stringify(r.statuses)}`,
			`${r.succeeded}${r.stuck ? ` (+${r.stuck} never finished)` : ''}`,
			String(r.lost),
			`${Math.round(r.peakRssMb)} MB`,
			`${(r.sendMs / 1000).toFixed(1)} s`,
		]),
	];
}

function renderFloodText(result) {
	return ['', `Flood: ${result.settings.count} distinct signed journey results, ${result.settings.concurrency} at a time, no resends, a fresh n8n 2.x each`, ...textTable(floodRows(result)), ''].join('\n');
}

function renderFloodMarkdown(result) {
	return [
		'',
		`## Flood: ${result.settings.count} distinct signed journey results, ${result.settings.concurrency} at a time (bench/lib/flood-bench.js)`,
		'',
		...markdownTable(floodRows(result)),
		'',
		'No resends: a delivery answered otherwise than 2xx is one the provider would send again, not a lost one. Lost: answered 2xx, no execution that ran to the end.',
		'',
	].join('\n');
}

module.exports = { runFloodBench, floodSettings, renderFloodText, renderFloodMarkdown };

if (require.main === module) {
	process.env.N8N_E2E_WORK_DIR ||= path.join(require('node:os').tmpdir(), 'n8n-nodes-verification-services-bench');
	runFloodBench({ log: (m) => process.stderr.write(`[flood-bench] ${m}\n`) })
		.then((result) => {
			process.stdout.write(renderFloodText(result));
			process.stdout.write(`${JSON.stringify(result)}\n`);
		})
		.catch((error) => {
			process.stderr.write(`${error.stack ?? error}\n`);
			process.exit(1);
		});
}

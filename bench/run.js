#!/usr/bin/env node
'use strict';
// `npm run bench`: this package's AML node vs n8n's HTTP Request node vs a plain client, against the
// sandbox emulator with a fixed latency and with a rate limit, inside a real n8n 2.x (`n8n execute`).
// See bench/README.md for what is measured and how to read the output.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..');
const WORK_DIR = path.join(__dirname, '.work');

const { run, runOrThrow, liveChildren } = require('../test/e2e/lib/util');
const { ensureN8n } = require('../test/e2e/lib/install');
const { createInstance, newId } = require('../test/e2e/lib/instance');
const { startEmulator, account, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('./lib/emulator');
const { CLIENT_ACCOUNTS } = require('../sandbox/constants');
const { startSampler } = require('./lib/sampler');
const { benchNames } = require('./lib/names');
const { amlWorkflow, httpWorkflow, httpBearerWorkflow, noOpWorkflow, sameOutputWorkflow, addressWorkflow, sameAddressOutputWorkflow, NODE_UNDER_TEST, CREDENTIAL_TYPE } = require('./lib/workflows');
const { median, max, min } = require('./lib/stats');
const { renderText, renderMarkdown, evaluateTargets } = require('./lib/report');
const { fmtS } = require('./lib/table');
const { runTriggerBench, triggerSettings, renderTriggerText, renderTriggerMarkdown } = require('./lib/trigger-bench');
const { runManyExecutions, renderManyExecutions } = require('./lib/many-executions');
const { runFloodBench, floodSettings, renderFloodText, renderFloodMarkdown } = require('./lib/flood-bench');
const { runCustomerBook, renderCustomerBook } = require('./lib/customer-book');

const env = process.env;
const num = (name, fallback) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : fallback);
const SETTINGS = {
	items: num('BENCH_ITEMS', 1000),
	latencyMs: num('BENCH_LATENCY_MS', 50),
	rate: num('BENCH_RATE', 20),
	memoryItems: num('BENCH_MEMORY_ITEMS', 10000),
	runs: Math.max(1, num('BENCH_RUNS', 3)),
	memoryRuns: Math.max(1, num('BENCH_MEMORY_RUNS', 1)),
	// After its first run, a configuration gets no further run once it has used this much time.
	configBudgetMs: num('BENCH_CONFIG_BUDGET_S', 300) * 1000,
	groups: (env.BENCH_ONLY || 'latency,rate,memory,trigger,flood,many,model').split(',').map((s) => s.trim()).filter(Boolean),
	// Only these configurations (keys as printed in the log, e.g. L-aml,L-plain-http); empty: all.
	keys: (env.BENCH_KEYS || '').split(',').map((s) => s.trim()).filter(Boolean),
	build: env.BENCH_SKIP_BUILD !== '1',
	// Many executions: a new n8n for every run (every run starts cold) instead of one per mode.
	manyFresh: env.BENCH_MANY_FRESH === '1',
	plainConcurrency: 5,
	// The customer book (group `book`, only when asked for: 100,000 customers take ~20 minutes per mode).
	book: {
		sizes: (env.BENCH_BOOK_SIZES || '10000,50000,100000').split(',').map(Number).filter((n) => n > 0),
		modes: (env.BENCH_BOOK_MODES || 'queue,regular').split(',').map((s) => s.trim()).filter(Boolean),
		rate: num('BENCH_BOOK_RATE', 100),
		latencyMs: num('BENCH_BOOK_LATENCY_MS', 50),
		fault: env.BENCH_BOOK_FAULT === '1',
		faultSize: num('BENCH_BOOK_FAULT_SIZE', 10000),
		saveOnSuccess: env.BENCH_BOOK_SAVE_ON_SUCCESS === 'none' ? 'none' : 'all',
		// The AML node's Max Requests per Second (per process); 0: the node learns the quota from 429s.
		maxRequestsPerSecond: num('BENCH_BOOK_MAX_RPS', 0),
	},
};

/**
 * A credential whose API Key and Customer ID are expressions of the item: the items take turns over
 * `count` of the emulator's accounts (its own, then CLIENT_ACCOUNTS), by the number in their name.
 */
function perItemAccount(count) {
	const accounts = [{ apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID }, ...CLIENT_ACCOUNTS].slice(0, count);
	const pick = (field) => `={{ ${JSON.stringify(accounts.map((a) => a[field]))}[Number($json.name.slice(-5)) % ${accounts.length}] }}`;
	return { apiKey: pick('apiKey'), customerId: pick('customerId') };
}

function log(msg) {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

// ------------------------------------------------------------------------------------------------
// Configurations

function configurations(s) {
	const latency = { latencyMs: s.latencyMs, rateLimit: 0 };
	const limited = { latencyMs: s.latencyMs, rateLimit: s.rate };
	const flat = { latencyMs: 0, rateLimit: 0 };
	const c = s.plainConcurrency;
	const list = [];
	if (s.groups.includes('latency')) {
		const g = 'latency';
		list.push(
			{ key: 'L-plain-http', group: g, kind: 'plain', label: `plain client node:http, concurrency ${c}`, scenario: latency, count: s.items, concurrency: c, client: 'http', reference: true },
			...(hasUndici() ? [{ key: 'L-plain-undici', group: g, kind: 'plain', label: `plain client undici, concurrency ${c}`, scenario: latency, count: s.items, concurrency: c, client: 'undici', reference: true }] : []),
			{ key: 'L-n8n-helper', group: g, kind: 'plain', label: `n8n's HTTP client alone (outside n8n), concurrency ${c}`, scenario: latency, count: s.items, concurrency: c, client: 'n8n-helper' },
			{ key: 'L-plain-unbounded', group: g, kind: 'plain', label: `plain client node:http, concurrency ${s.items} (all at once)`, scenario: latency, count: s.items, concurrency: s.items, client: 'http' },
			{ key: 'L-aml', group: g, kind: 'n8n', label: 'AML node, default settings', scenario: latency, count: s.items, workflow: 'aml' },
			{ key: 'L-aml-accounts', group: g, kind: 'n8n', label: 'AML node, a credential resolving the items to three accounts', scenario: latency, count: s.items, workflow: 'aml', accounts: 3 },
			// Concurrency taken from the AML node's peak in this run (the emulator's count), once L-aml has run.
			{ key: 'L-plain-peak', group: g, kind: 'plain', label: 'plain client node:http, at the AML node\'s peak concurrency', scenario: latency, count: s.items, concurrencyOf: 'L-aml', client: 'http' },
			{ key: 'L-n8n-helper-peak', group: g, kind: 'plain', label: 'n8n\'s HTTP client alone (outside n8n), at the AML node\'s peak concurrency', scenario: latency, count: s.items, concurrencyOf: 'L-aml', client: 'n8n-helper' },
			{ key: 'L-aml-c5', group: g, kind: 'n8n', label: 'AML node, Max Concurrent Requests 5 (the former default)', scenario: latency, count: s.items, workflow: 'aml', options: { maxConcurrentRequests: 5 } },
			{ key: 'L-http-nobatch', group: g, kind: 'n8n', label: 'HTTP Request with this credential, no batching, Retry On Fail', scenario: latency, count: s.items, workflow: 'http', batching: null },
			{ key: 'L-http-bearer', group: g, kind: 'n8n', label: 'HTTP Request with an /auth node and a bearer expression, no batching, Retry On Fail', scenario: latency, count: s.items, workflow: 'httpBearer' },
		);
	}
	if (s.groups.includes('rate')) {
		const g = 'rate';
		list.push(
			{ key: 'R-limit', group: g, kind: 'limit', label: `physical limit N / rate = ${s.items} / ${s.rate}`, scenario: limited, count: s.items },
			{ key: 'R-plain-paced', group: g, kind: 'plain', label: `plain client node:http, concurrency ${c}, perfect pacer (${s.rate}/s - 1 %)`, scenario: limited, count: s.items, concurrency: c, client: 'http', pace: s.rate, reference: true },
			{ key: 'R-aml', group: g, kind: 'n8n', label: 'AML node, default settings', scenario: limited, count: s.items, workflow: 'aml' },
			{ key: 'R-http-batch', group: g, kind: 'n8n', label: `HTTP Request, batch ${s.rate} / 1000 ms, Retry On Fail`, scenario: limited, count: s.items, workflow: 'http', batching: { batchSize: s.rate, batchInterval: 1000 } },
		);
	}
	if (s.groups.includes('memory')) {
		const small = Math.round(s.memoryItems / 10);
		const row = (key, label, count, extra) => ({ key, group: 'memory', kind: 'n8n', label: `${label}, ${count} items`, scenario: flat, count, runs: s.memoryRuns, ...extra });
		const pair = (key, label, extra) => [row(`M-${key}-small`, label, small, extra), row(`M-${key}-large`, label, s.memoryItems, extra)];
		list.push(
			...pair('noop', 'No Operation node (n8n baseline)', { workflow: 'noop' }),
			...pair('same', "Set node making the AML node's output, no request (n8n baseline)", { workflow: 'sameOutput' }),
			...pair('aml', 'AML node, default settings', { workflow: 'aml' }),
			// n8n's own node sends the same requests through the same HTTP client: how much of the growth is that client's.
			...pair('http', 'HTTP Request with this credential', { workflow: 'http', batching: null }),
		);
		// Evidence and review (issue 47) on and off: a night of 10,000 customers, one in ten on three lists,
		// each screened with its Decided Records (JSON text: two decided, one of them since changed).
		const decidedRecords = JSON.stringify({ 'AML-SAN-0001': '0'.repeat(64), 'AML-SAN-0002': 'f'.repeat(64) });
		const review = { workflow: 'aml', hitEvery: 10, runs: Math.max(3, s.memoryRuns), scenario: env.BENCH_REVIEW_LATENCY === '1' ? latency : flat };
		list.push(
			row('M-review-off', 'AML node, one in ten a hit, without Decided Records or evidence', s.memoryItems, { ...review, options: { includeEvidence: false } }),
			row('M-review-on', 'AML node, one in ten a hit, with Decided Records and evidence (default)', s.memoryItems, { ...review, options: { decidedRecords } }),
		);
		// Simplify on and off, alternating: Address Verification version 2 (an answer of 21 fields, 8 kept).
		for (const [size, count] of [['small', small], ['large', s.memoryItems]]) {
			list.push(
				row(`M-addr-same-${size}`, "Set node making Verify Address's whole output, no request (n8n baseline)", count, { workflow: 'sameAddress' }),
				row(`M-addr-raw-${size}`, 'Address Verification v2, Simplify off', count, { workflow: 'address', options: { simple: false } }),
				row(`M-addr-simple-${size}`, 'Address Verification v2, Simplify on (default)', count, { workflow: 'address', options: { simple: true } }),
			);
		}
	}
	if (s.groups.includes('trigger')) {
		list.push({ key: 'T-trigger', group: 'trigger', kind: 'trigger', label: 'QES trigger and Verification Webhook Trigger vs plain Webhook node, 20 concurrent (bench/lib/trigger-bench.js)' });
	}
	if (s.groups.includes('flood')) {
		list.push({ key: 'F-flood', group: 'flood', kind: 'flood', label: 'Verification Webhook Trigger vs plain Webhook node under a flood of 2,100 deliveries: lost deliveries and peak memory (bench/lib/flood-bench.js)' });
	}
	return s.keys.length ? list.filter((c) => s.keys.includes(c.key)) : list;
}

function hasUndici() {
	try {
		require.resolve('undici', { paths: [path.join(__dirname, 'lib')] });
		return true;
	} catch {
		return false;
	}
}

/**
 * The pid of the first child process started from now on (test/e2e/lib/util tracks them) whose
 * arguments include `arg`; null until it is there.
 */
function pidOfNewChild(arg) {
	const before = new Set(liveChildren);
	let pid = null;
	return () => {
		for (const child of liveChildren) if (!pid && !before.has(child) && child.spawnargs.includes(arg)) pid = child.pid;
		return pid;
	};
}

// ------------------------------------------------------------------------------------------------
// One run of each kind

async function runPlain(ctx, cfg) {
	await ctx.emulator.control.prepare(cfg.scenario);
	const options = {
		baseUrl: ctx.emulator.baseUrl,
		count: cfg.count,
		concurrency: cfg.concurrency,
		ratePerSecond: cfg.pace ?? 0,
		apiKey: SANDBOX_API_KEY,
		customerId: SANDBOX_CUSTOMER_ID,
		client: cfg.client,
	};
	// n8n's HTTP client runs under n8n's own Node, loaded from the installed n8n.
	const nodeBin = cfg.client === 'n8n-helper' ? ctx.runtime.nodeBin : process.execPath;
	if (cfg.client === 'n8n-helper') options.n8nModules = path.join(ctx.runtime.dir, 'node_modules');
	const script = path.join(__dirname, 'lib', 'plain-client.js');
	const sampler = startSampler(pidOfNewChild(script));
	const res = await run(nodeBin, [script, JSON.stringify(options)], { cwd: REPO_ROOT });
	const mem = sampler.stop();
	if (res.code !== 0) throw new Error(`plain client failed (${res.code ?? res.signal}): ${res.stderr}`);
	const out = JSON.parse(res.stdout.trim().split('\n').pop());
	const acct = await account(ctx.emulator.control, benchNames(cfg.count));
	return {
		nodeMs: out.wallMs,
		processMs: res.durationMs,
		succeeded: out.ok,
		serverSucceeded: acct.succeeded,
		lost: cfg.count - out.ok,
		duplicated: acct.duplicated,
		authCalls: acct.authCalls,
		status429: acct.status429,
		maxConcurrent: acct.maxConcurrent,
		requests: acct.amlRequests,
		peakRssKb: Math.max(mem.peakKb, out.rssKb),
		client: out.client,
	};
}

async function runN8n(ctx, cfg) {
	await ctx.emulator.control.prepare(cfg.scenario);
	const sampler = startSampler(pidOfNewChild('execute'));
	const expectedMs = cfg.scenario.rateLimit ? (cfg.count / cfg.scenario.rateLimit) * 1000 : 0;
	// BENCH_CPU_PROF=<folder>: every n8n process of the run writes a V8 CPU profile there (--cpu-prof).
	const profile = env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(env.BENCH_CPU_PROF, cfg.key)}` } : undefined;
	const res = await ctx.instance.execute(cfg.workflowId, { timeoutMs: Math.max(10 * 60 * 1000, expectedMs * 6 + 120_000), env: profile });
	const mem = sampler.stop();
	const acct = await account(ctx.emulator.control, benchNames(cfg.count, cfg.hitEvery));
	const task = res.runData?.[NODE_UNDER_TEST]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const outOk = items.filter((i) => i.json && i.json.error === undefined).length;
	const sendsNothing = cfg.workflow === 'noop' || cfg.workflow === 'sameOutput' || cfg.workflow === 'sameAddress';
	// The emulator's account counts AML checks by name; other nodes are counted by their output items.
	const notAml = sendsNothing || cfg.workflow === 'address';
	const succeeded = notAml ? outOk : Math.min(outOk, acct.succeeded);
	return {
		nodeMs: task?.executionTime ?? null,
		nodeStart: task?.startTime ?? null,
		// From the node's start to its first request: reading the credential, evaluating every item's
		// parameters (n8n's expression engine) and validating them, which the AML node does before sending.
		firstRequestMs: task?.startTime && acct.firstRequestAt ? acct.firstRequestAt - task.startTime : null,
		processMs: res.durationMs,
		succeeded,
		outputItems: items.length,
		serverSucceeded: notAml ? null : acct.succeeded,
		lost: cfg.count - succeeded,
		duplicated: notAml ? 0 : acct.duplicated,
		authCalls: acct.authCalls,
		status429: acct.status429,
		maxConcurrent: acct.maxConcurrent,
		requests: acct.amlRequests,
		peakRssKb: mem.peakKb,
		rootPeakRssKb: mem.rootPeakKb,
		processes: mem.peakProcesses,
		samples: mem.samples,
		error: res.ok ? undefined : (res.errorMessage ?? `n8n exited with ${res.exitCode ?? res.signal}`).split('\n')[0].slice(0, 300),
		exitCrash: res.exitCrash ?? undefined,
	};
}

function summarize(cfg, runs, settings) {
	const nodeMs = median(runs.map((r) => r.nodeMs));
	return {
		key: cfg.key,
		group: cfg.group,
		kind: cfg.kind,
		label: cfg.label,
		count: cfg.count,
		scenario: cfg.scenario,
		runs: runs.length,
		nodeMs,
		processMs: median(runs.map((r) => r.processMs)),
		firstRequestMs: median(runs.map((r) => r.firstRequestMs)),
		succeeded: min(runs.map((r) => r.succeeded)),
		lost: max(runs.map((r) => r.lost)),
		duplicated: max(runs.map((r) => r.duplicated)),
		authCalls: runs.map((r) => r.authCalls),
		status429: median(runs.map((r) => r.status429)),
		status429Runs: runs.map((r) => r.status429),
		maxConcurrent: max(runs.map((r) => r.maxConcurrent)),
		peakRssKb: max(runs.map((r) => r.peakRssKb)),
		errors: runs.map((r) => r.error).filter(Boolean),
		perRun: runs,
		limitMs: cfg.kind === 'limit' ? (cfg.count / settings.rate) * 1000 : undefined,
	};
}

// ------------------------------------------------------------------------------------------------

async function main() {
	const started = performance.now();
	fs.mkdirSync(WORK_DIR, { recursive: true });
	await waitForQuiet();
	const settings = SETTINGS;
	log(`settings: ${JSON.stringify(settings)}`);

	// What a model reads per tool call, Simplified vs Raw, per operation (no n8n needed: the emulator and
	// the node's own toolOutput, bench/model/characters.measure.ts).
	let modelMarkdown = '';
	if (settings.groups.includes('model')) {
		log('model: characters a model receives per tool call, Simplified vs Raw (bench/model)');
		await runOrThrow('npx', ['jest', '--config', 'bench/model/jest.config.js', 'bench/model/characters.measure.ts'], { cwd: REPO_ROOT, timeoutMs: 5 * 60 * 1000 });
		modelMarkdown = `\n${fs.readFileSync(path.join(WORK_DIR, 'model-characters.md'), 'utf8')}`;
		if (settings.groups.every((g) => g === 'model')) {
			process.stdout.write(modelMarkdown);
			return;
		}
	}

	if (settings.build) {
		log('npm run build (the benchmark measures the current source; BENCH_SKIP_BUILD=1 to skip)');
		await runOrThrow('npm', ['run', 'build'], { cwd: REPO_ROOT });
	}

	// n8n's instance folder must live outside the repository (see test/e2e/lib/instance.js): from
	// inside it the installed package would resolve the repo's own n8n-workflow. bench/.work/n8n links to it.
	env.N8N_E2E_WORK_DIR ||= path.join(os.tmpdir(), 'n8n-nodes-verification-services-bench');
	fs.mkdirSync(env.N8N_E2E_WORK_DIR, { recursive: true });
	const link = path.join(WORK_DIR, 'n8n');
	if (!fs.lstatSync(link, { throwIfNoEntry: false })) fs.symlinkSync(env.N8N_E2E_WORK_DIR, link, 'dir');

	const driverLog = (m) => log(`n8n: ${m}`);

	const emulator = await startEmulator();
	log(`emulator pid ${emulator.pid} at ${emulator.baseUrl}`);
	const ctx = { emulator, instance: null };
	const configs = configurations(settings);
	const results = [];
	let manyRows = [];
	let bookRows = [];
	let meta = {};
	try {
		const needsN8n = configs.some((c) => c.kind === 'n8n' || c.client === 'n8n-helper');
		if (needsN8n) {
			const t0 = performance.now();
			const runtime = await ensureN8n('v2', { log: driverLog });
			ctx.runtime = runtime;
			ctx.instance = await createInstance('v2', { name: 'bench', log: driverLog });
			log(`n8n ${runtime.n8nVersion} instance ready in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${ctx.instance.userFolder}`);
			meta.n8nVersion = runtime.n8nVersion;
			meta.n8nNode = runtime.marker?.nodeVersion;
			if (ctx.instance.package?.buildError) throw new Error(ctx.instance.package.buildError);

			// One credential per configuration, so the first run of each starts cold (no stored token).
			const credentials = [];
			const workflows = [];
			for (const cfg of configs.filter((c) => c.kind === 'n8n')) {
				const credential = {
					id: newId('cred'),
					name: `Bench ${cfg.key}`,
					type: CREDENTIAL_TYPE,
					data: { environment: 'sandbox', sandboxBaseUrl: emulator.baseUrl, ...(cfg.accounts ? perItemAccount(cfg.accounts) : { apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID }) },
				};
				credentials.push(credential);
				cfg.workflowId = newId('wf');
				const spec = { id: cfg.workflowId, name: `Bench ${cfg.key}`, count: cfg.count, credential, baseUrl: emulator.baseUrl, batching: cfg.batching, options: cfg.options, hitEvery: cfg.hitEvery, apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID };
				const build = { aml: amlWorkflow, http: httpWorkflow, httpBearer: httpBearerWorkflow, noop: noOpWorkflow, sameOutput: sameOutputWorkflow, address: addressWorkflow, sameAddress: sameAddressOutputWorkflow }[cfg.workflow];
				workflows.push(build(spec));
			}
			await ctx.instance.importCredentials(credentials);
			await ctx.instance.importWorkflows(workflows);
			log(`imported ${credentials.length} credentials and ${workflows.length} workflows`);
		}

		for (const cfg of configs) {
			if (cfg.kind === 'trigger') {
				ctx.trigger = await runTriggerBench({ emulator, log: driverLog, settings: triggerSettings(env) });
				continue;
			}
			if (cfg.kind === 'flood') {
				ctx.flood = await runFloodBench({ log: driverLog, settings: floodSettings(env) });
				continue;
			}
			if (cfg.kind === 'limit') {
				results.push(summarize(cfg, [], settings));
				continue;
			}
			if (cfg.concurrencyOf) {
				const peak = results.find((r) => r.key === cfg.concurrencyOf)?.maxConcurrent;
				if (!peak) {
					log(`${cfg.key}: skipped, ${cfg.concurrencyOf} has no peak concurrency in this run`);
					continue;
				}
				cfg.concurrency = peak;
				cfg.label = `${cfg.label} (${peak})`;
			}
			const wanted = cfg.runs ?? Math.max(settings.runs, cfg.minRuns ?? 1);
			const runs = [];
			const cfgStart = performance.now();
			for (let i = 0; i < wanted; i++) {
				const overBudget = performance.now() - cfgStart > settings.configBudgetMs;
				if (i > 0 && overBudget && i >= (cfg.minRuns ?? 1)) {
					log(`${cfg.key}: budget used up after ${i} run(s), skipping the rest`);
					break;
				}
				const loadBefore = os.loadavg()[0];
				const r = cfg.kind === 'plain' ? await runPlain(ctx, cfg) : await runN8n(ctx, cfg);
				r.load1 = Math.max(loadBefore, os.loadavg()[0]);
				runs.push(r);
				log(
					`${cfg.key} run ${i + 1}/${wanted}: node ${fmtS(r.nodeMs)} (1st request ${fmtS(r.firstRequestMs)}) process ${fmtS(r.processMs)} ok ${r.succeeded}/${cfg.count}` +
						` dup ${r.duplicated} /auth ${r.authCalls} 429 ${r.status429} conc ${r.maxConcurrent} rss ${(r.peakRssKb / 1024).toFixed(0)} MB` +
						(r.error ? ` ERROR ${r.error}` : ''),
				);
			}
			results.push(summarize(cfg, runs, settings));
		}
		if (settings.groups.includes('many')) {
			manyRows = await runManyExecutions({ emulator, rate: settings.rate, latencyMs: settings.latencyMs, runs: settings.runs, keys: settings.keys, fresh: settings.manyFresh, apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID, log: driverLog });
		}
		if (settings.groups.includes('book')) {
			bookRows = await runCustomerBook({ emulator, ...settings.book, log: driverLog });
		}
	} finally {
		await ctx.instance?.stop().catch(() => {});
		await emulator.stop();
	}

	const totalMs = performance.now() - started;
	meta = {
		...meta,
		date: new Date().toISOString(),
		node: process.version,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGb: Math.round(os.totalmem() / 2 ** 30),
		// 1-minute load average around the runs: above the CPU count, other work competed with the bench.
		maxLoad1: max(results.flatMap((r) => r.perRun.map((run) => run.load1))),
		totalMs,
		settings,
	};
	const targets = evaluateTargets(results, settings, manyRows);
	const report = { meta, results, targets, ...(ctx.trigger ? { trigger: ctx.trigger } : {}), ...(ctx.flood ? { flood: ctx.flood } : {}), manyExecutions: manyRows, customerBook: bookRows };
	fs.writeFileSync(path.join(WORK_DIR, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
	// Only a full run replaces the committed bench/results.md; a partial one (BENCH_ONLY) stays in .work.
	const full = ['latency', 'rate', 'memory'].every((g) => settings.groups.includes(g)) && settings.keys.length === 0;
	const markdownFile = full ? path.join(__dirname, 'results.md') : path.join(WORK_DIR, 'results.md');
	const extraMarkdown = (ctx.trigger ? renderTriggerMarkdown(ctx.trigger) : '') + (ctx.flood ? renderFloodMarkdown(ctx.flood) : '') + renderManyExecutions(manyRows) + renderCustomerBook(bookRows) + modelMarkdown;
	const extraText = (ctx.trigger ? renderTriggerText(ctx.trigger) : '') + (ctx.flood ? renderFloodText(ctx.flood) : '') + renderManyExecutions(manyRows) + renderCustomerBook(bookRows) + modelMarkdown;
	fs.writeFileSync(markdownFile, renderMarkdown(report) + extraMarkdown);
	process.stdout.write(renderText(report) + extraText);
	log(`results: bench/.work/results.json, ${path.relative(REPO_ROOT, markdownFile)}; total ${(totalMs / 1000).toFixed(0)} s`);
}

/**
 * Other CPU work (an e2e run, a build) skews every figure: wait up to BENCH_WAIT_QUIET_S (default 120 s)
 * for the 1-minute load average to drop below half the CPU count, then go on regardless.
 */
async function waitForQuiet() {
	const limit = os.cpus().length / 2;
	const deadline = Date.now() + num('BENCH_WAIT_QUIET_S', 120) * 1000;
	let said = false;
	while (os.loadavg()[0] > limit && Date.now() < deadline) {
		if (!said) log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs: waiting for the machine to quiet down`);
		said = true;
		await new Promise((r) => setTimeout(r, 5000));
	}
	if (os.loadavg()[0] > limit) log(`load average still ${os.loadavg()[0].toFixed(1)}: figures will be slower than on a quiet machine`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});

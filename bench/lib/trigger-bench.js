'use strict';
// The trigger row of `npm run bench` (T-trigger): what it sends, counts and measures is bench/README.md's
// "Trigger row". Standalone (prints JSON):  node bench/lib/trigger-bench.js   (build first: npm run build)

const crypto = require('node:crypto');
const path = require('node:path');

const { median, max } = require('./stats');
const { startEmulator, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('./emulator');
const { markdownTable, textTable, fmtX } = require('./table');
const { createInstance } = require('../../test/e2e/lib/instance');
const { sleep, waitUntil } = require('../../test/e2e/lib/util');
const { post, pool, signed, resultsTrigger, executionCount } = require('./deliveries');
const { chain, noOp, trigger, webhookTrigger } = require('../../test/e2e/lib/workflows');

const CREDENTIAL_TYPE = 'verificationServicesApi';
const SECRET_HEADER = 'X-Verification-Webhook-Secret';

function triggerSettings(env = process.env) {
	const num = (name, fallback) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : fallback);
	return {
		pings: num('BENCH_TRIGGER_PINGS', 200),
		concurrency: num('BENCH_TRIGGER_CONCURRENCY', 20),
		rounds: Math.max(1, num('BENCH_TRIGGER_ROUNDS', 3)),
		duplicateGroups: num('BENCH_TRIGGER_DUPLICATE_GROUPS', 20),
		copies: num('BENCH_TRIGGER_COPIES', 5),
		// 0 skips the slow-API run.
		slowApiMs: num('BENCH_TRIGGER_SLOW_API_MS', 10000),
		slowPings: num('BENCH_TRIGGER_SLOW_PINGS', 100),
		// Extra environment for the n8n server, as JSON (e.g. {"N8N_EXPRESSION_ENGINE":"legacy"} to see the isolate's share).
		n8nEnv: env.BENCH_TRIGGER_N8N_ENV ? JSON.parse(env.BENCH_TRIGGER_N8N_ENV) : {},
	};
}

/** A hosted journey result as the provider delivers it. */
const resultBody = (transactionId) => ({
	transactionId,
	timestamp: new Date().toISOString(),
	status: 'complete',
	success: 'PASS',
	generalTransactionData: { status: 'complete', success: 'PASS' },
	journeySummary: { journeyStats: { completedSteps: '3' } },
});

const pingBody = (sessionId, extra = {}) => ({
	event: 'qes.status',
	sessionId,
	requestId: sessionId,
	status: 'completed',
	timestamp: new Date().toISOString(),
	...extra,
});

function summarizeAnswers(answers, wallMs) {
	const times = answers.map((a) => a.ms);
	const sorted = [...times].sort((a, b) => a - b);
	return {
		p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? null,
		count: answers.length,
		ok: answers.filter((a) => a.status >= 200 && a.status < 300).length,
		statuses: answers.reduce((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {}),
		medianMs: median(times),
		maxMs: max(times),
		wallMs,
		perSecond: answers.length / (wallMs / 1000),
	};
}

/** Waits (up to 3 minutes) until no execution of any workflow is still new or running (the next batch starts on an idle n8n). */
async function idle(server) {
	const deadline = Date.now() + 180000;
	while ((await executionCount(server, { status: ['new', 'running'] })) > 0 && Date.now() < deadline) await sleep(250);
}

/** Waits until the count stops growing for `quietMs`. */
async function settledCount(server, workflowId, { atLeast = 0, quietMs = 3000, timeoutMs = 180000 } = {}) {
	const started = Date.now();
	let last = -1;
	let stableSince = Date.now();
	for (;;) {
		const n = await executionCount(server, { workflowId });
		if (n !== last) {
			last = n;
			stableSince = Date.now();
		}
		if (n >= atLeast && Date.now() - stableSince >= quietMs) return n;
		if (Date.now() - started > timeoutMs) return n;
		await sleep(500);
	}
}

/**
 * One complete trigger benchmark: its own n8n instance and server, the emulator given (a running
 * sandbox: { url, baseUrl, control }).
 * @returns {Promise<object>} what renderTriggerText / renderTriggerMarkdown print
 */
async function runTriggerBench({ emulator, log = () => {}, settings = triggerSettings() }) {
	await emulator.control.prepare({ latencyMs: 0, rateLimit: 0 });

	const instance = await createInstance('v2', { name: 'bench-trigger', log });
	const result = { settings, n8nVersion: instance.runtime.n8nVersion, rounds: [] };
	let server;
	try {
		if (instance.package?.buildError) throw new Error(instance.package.buildError);
		const credential = {
			name: 'Bench trigger',
			type: CREDENTIAL_TYPE,
			data: { environment: 'sandbox', sandboxBaseUrl: emulator.baseUrl, apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID },
		};
		const [credentialId] = await instance.importCredentials([credential]);
		const credentials = { [CREDENTIAL_TYPE]: { id: credentialId, name: credential.name } };
		const resultsWebhookId = crypto.randomUUID();
		const triggerWebhookId = crypto.randomUUID();
		const offWebhookId = crypto.randomUUID();
		const fetchWebhookId = crypto.randomUUID();
		const plainPath = `bench-plain-${crypto.randomUUID().slice(0, 8)}`;
		const qesTrigger = (name, webhookId, options) =>
			chain(name, [trigger({ name: 'QES Onboarding Trigger', source: 'qesStatus', webhookId, parameters: { options }, credentials }), noOp('No Operation')]);
		const [triggerId, plainId, fetchId, offId, resultsId] = await instance.importWorkflows([
			qesTrigger('Bench QES trigger', triggerWebhookId, {}),
			chain('Bench plain Webhook', [webhookTrigger('Webhook', plainPath, { responseMode: 'onReceived' }), noOp('No Operation')]),
			qesTrigger('Bench QES trigger with fetch', fetchWebhookId, { fetchVerification: true }),
			// What the duplicate check costs: the same trigger with it off.
			qesTrigger('Bench QES trigger, duplicates not ignored', offWebhookId, { dedupMinutes: 0 }),
			chain('Bench Verification Webhook Trigger', [await resultsTrigger(instance, { webhookId: resultsWebhookId }), noOp('No Operation')]),
		]);

		server = await instance.startServer({ env: settings.n8nEnv });
		const base = `${server.url}/`;
		await server.ensureLoggedIn();
		const triggerUrl = `${base}webhook/${triggerWebhookId}/webhook`;
		const fetchUrl = `${base}webhook/${fetchWebhookId}/webhook`;
		const offUrl = `${base}webhook/${offWebhookId}/webhook`;
		const plainUrl = `${base}webhook/${plainPath}`;
		const resultsUrl = `${base}webhook/${resultsWebhookId}/webhook`;

		/** Activates a trigger workflow and returns the secret the emulator got for its URL. */
		const activateTrigger = async (workflowId, url) => {
			await server.activateWorkflow(workflowId);
			return await waitUntil(`the trigger workflow ${workflowId} to register ${url}`, async () => {
				const res = await fetch(`${emulator.url}/__control/webhook`);
				const hook = res.ok ? await res.json() : {};
				return hook.url === url && (await post(url, { probe: true })).status === 401 && hook.metadata.authHeader[SECRET_HEADER];
			});
		};
		await server.activateWorkflow(plainId);
		await server.activateWorkflow(resultsId);
		await waitUntil(`the Verification Webhook Trigger workflow to serve ${resultsUrl}`, async () => (await post(resultsUrl, { probe: true })).status === 401);
		const offHeaders = { [SECRET_HEADER]: await activateTrigger(offId, offUrl) };
		const secret = await activateTrigger(triggerId, triggerUrl);
		const headers = { [SECRET_HEADER]: secret };
		// send(i, id): the request of ping i; the Verification Webhook Trigger gets signed journey results.
		const sendPing = (url, sent) => (id) => post(url, pingBody(id), sent);
		const targets = {
			plain: { workflowId: plainId, send: sendPing(plainUrl, {}) },
			trigger: { workflowId: triggerId, send: sendPing(triggerUrl, headers) },
			'trigger-off': { workflowId: offId, send: sendPing(offUrl, offHeaders) },
			results: {
				workflowId: resultsId,
				send: (id) => {
					const body = resultBody(id);
					return post(resultsUrl, body, signed(body));
				},
			},
		};
		log(`trigger bench: n8n ${instance.runtime.n8nVersion} on port ${server.port}, both workflows active`);

		// Warm-up (module loading, first DB writes), not measured.
		const tag = crypto.randomUUID().slice(0, 8);
		for (const target of Object.values(targets)) {
			await pool(20, 5, (i) => target.send(`warm-${tag}-${i}`));
			await settledCount(server, target.workflowId, { atLeast: 20, quietMs: 1500 });
		}

		// Distinct pings, N at a time; the order of the workflows rotates so that drifting load hits all.
		const { pings, concurrency } = settings;
		const order = ['plain', 'trigger', 'trigger-off', 'results'];
		for (let round = 1; round <= settings.rounds; round++) {
			const rotated = [...order.slice((round - 1) % order.length), ...order.slice(0, (round - 1) % order.length)];
			for (const which of round % 2 ? rotated : rotated.reverse()) {
				const { workflowId, send } = targets[which];
				const before = await settledCount(server, workflowId, { quietMs: 1000 });
				await idle(server);
				const t0 = performance.now();
				const answers = await pool(pings, concurrency, (i) => send(`r${round}-${tag}-${i}`));
				const summary = summarizeAnswers(answers, performance.now() - t0);
				summary.executionsStarted = (await settledCount(server, workflowId, { atLeast: before + summary.ok })) - before;
				result.rounds.push({ round, which, ...summary });
				log(
					`trigger bench round ${round} ${which}: ${summary.ok}/${pings} ok, median ${summary.medianMs.toFixed(0)} ms, p90 ${summary.p90Ms.toFixed(0)} ms, max ${summary.maxMs.toFixed(0)} ms, ` +
						`${summary.perSecond.toFixed(1)} pings/s, ${summary.executionsStarted} executions`,
				);
			}
		}

		// Duplicates: groups of identical copies sent at once; one execution per group is right.
		{
			const before = await settledCount(server, triggerId, { quietMs: 1000 });
			const groups = settings.duplicateGroups;
			const copies = settings.copies;
			const answers = [];
			await pool(groups, 4, async (g) => {
				const body = pingBody(`dup-${tag}-${g}`);
				answers.push(...(await Promise.all(Array.from({ length: copies }, () => post(triggerUrl, body, headers)))));
			});
			const started = (await settledCount(server, triggerId, { atLeast: before + groups })) - before;
			const suppressed = answers.filter((a) => a.body && a.body.started === false && /duplicate/.test(String(a.body.reason))).length;
			result.duplicates = { groups, copies, sent: answers.length, ok: answers.filter((a) => a.status >= 200 && a.status < 300).length, executionsStarted: started, suppressed };
			log(`trigger bench duplicates: ${groups} x ${copies} copies at once -> ${started} executions, ${suppressed} answered as duplicates`);
		}

		// Enrichment against an API that hangs: every answer must still come well inside 10 s.
		if (settings.slowApiMs > 0) {
			await server.deactivateWorkflow(triggerId);
			const fetchSecret = await activateTrigger(fetchId, fetchUrl);
			await emulator.control.config({ latencyMs: settings.slowApiMs });
			const before = await settledCount(server, fetchId, { quietMs: 1000 });
			await idle(server);
			const t0 = performance.now();
			const answers = await pool(settings.slowPings, concurrency, (i) => post(fetchUrl, pingBody(`slow-${tag}-${i}`), { [SECRET_HEADER]: fetchSecret }));
			const summary = summarizeAnswers(answers, performance.now() - t0);
			await emulator.control.config({ latencyMs: 0 });
			summary.executionsStarted = (await settledCount(server, fetchId, { atLeast: before + summary.ok })) - before;
			summary.apiMs = settings.slowApiMs;
			summary.over10s = answers.filter((a) => a.ms >= 10000).length;
			result.slowApi = summary;
			log(
				`trigger bench slow API (${settings.slowApiMs} ms): ${summary.ok}/${settings.slowPings} ok, median ${summary.medianMs.toFixed(0)} ms, ` +
					`max ${summary.maxMs.toFixed(0)} ms, ${summary.over10s} at or over 10 s, ${summary.executionsStarted} executions`,
			);
		}
	} finally {
		await emulator.control.config({ latencyMs: 0 }).catch(() => {});
		await instance.stop().catch(() => {});
	}
	result.summary = summarizeTrigger(result);
	return result;
}

/** Medians over the rounds, and the trigger's ratios to the plain Webhook node. */
function summarizeTrigger(result) {
	// A round in which n8n refused some requests (e.g. 503 "Database is not ready" when its database
	// ping times out on an overloaded machine) measured refusals, not answers: its times are left out.
	const complete = (r) => r.ok === r.count;
	const pick = (which) => {
		const all = result.rounds.filter((r) => r.which === which);
		const rows = all.some(complete) ? all.filter(complete) : all;
		return {
			perSecond: median(rows.map((r) => r.perSecond)),
			medianMs: median(rows.map((r) => r.medianMs)),
			maxMs: median(rows.map((r) => r.maxMs)),
			worstMaxMs: max(rows.map((r) => r.maxMs)),
			executionsStarted: all.reduce((n, r) => n + r.executionsStarted, 0),
			sent: all.reduce((n, r) => n + r.count, 0),
			ok: all.reduce((n, r) => n + r.ok, 0),
			leftOut: all.filter((r) => !complete(r)).map((r) => `round ${r.round}: ${JSON.stringify(r.statuses)}`),
		};
	};
	const trigger = pick('trigger');
	const plain = pick('plain');
	const off = pick('trigger-off');
	const results = pick('results');
	return {
		trigger,
		plain,
		off,
		results,
		medianRatio: plain.medianMs ? trigger.medianMs / plain.medianMs : null,
		maxRatio: plain.maxMs ? trigger.maxMs / plain.maxMs : null,
		resultsMedianRatio: plain.medianMs && results.sent ? results.medianMs / plain.medianMs : null,
		resultsMaxRatio: plain.maxMs && results.sent ? results.maxMs / plain.maxMs : null,
		// Each round's median against the same round's plain Webhook node: steadier than the ratio of
		// the medians when the machine's load changes between rounds.
		resultsRoundRatios: result.rounds
			.filter((r) => r.which === 'results' && complete(r))
			.map((r) => [r, result.rounds.find((p) => p.which === 'plain' && p.round === r.round)])
			.filter(([, p]) => complete(p))
			.map(([r, p]) => r.medianMs / p.medianMs),
	};
}

const fmtMs = (ms) => (ms === null || ms === undefined ? '-' : `${Math.round(ms)} ms`);

/** A row of answer times: its median and max, each with a note (the ratio to the plain Webhook node). */
const timed = (label, s, medianNote, maxNote) => [label, s.perSecond?.toFixed(1), `${fmtMs(s.medianMs)} (${medianNote})`, `${fmtMs(s.maxMs)} (${maxNote})`, `${s.executionsStarted}/${s.sent}`, '-'];

function triggerRows(result) {
	const { trigger, plain, off, results, medianRatio, maxRatio, resultsMedianRatio, resultsMaxRatio, resultsRoundRatios } = result.summary;
	const s = result.settings;
	const dup = result.duplicates;
	const rows = [
		['configuration', 'pings/s', 'median answer', 'max answer', 'executions started', 'duplicates suppressed'],
		[`plain n8n Webhook node (reference)`, plain.perSecond?.toFixed(1), fmtMs(plain.medianMs), fmtMs(plain.maxMs), `${plain.executionsStarted}/${plain.sent}`, '-'],
		timed('QES trigger, default options', trigger, fmtX(medianRatio), fmtX(maxRatio)),
	];
	if (off.sent) {
		rows.push(timed('QES trigger, Ignore Duplicates off', off, fmtX(plain.medianMs ? off.medianMs / plain.medianMs : null), fmtX(plain.maxMs ? off.maxMs / plain.maxMs : null)));
	}
	if (results?.sent) {
		const perRound = `per round ${resultsRoundRatios.map(fmtX).join(', ')}, median ${fmtX(median(resultsRoundRatios))}`;
		rows.push(timed('Verification Webhook Trigger, signed journey results (HMAC check, duplicate memory on)', results, `${fmtX(resultsMedianRatio)}; ${perRound}`, fmtX(resultsMaxRatio)));
	}
	if (dup) rows.push([`QES trigger, ${dup.groups} pings x ${dup.copies} identical copies at once`, '-', '-', '-', `${dup.executionsStarted}/${dup.sent}`, `${dup.suppressed}`]);
	if (result.slowApi) {
		const a = result.slowApi;
		rows.push([
			`QES trigger, Fetch Verification Result, API answering after ${a.apiMs / 1000} s (${s.slowPings} pings)`,
			a.perSecond.toFixed(1),
			fmtMs(a.medianMs),
			`${fmtMs(a.maxMs)} (${a.over10s} >= 10 s)`,
			`${a.executionsStarted}/${a.count}`,
			'-',
		]);
	}
	return rows;
}

/** Rounds whose times were left out because n8n refused some of their requests. */
function leftOutNotes(result) {
	const names = { plain: 'plain Webhook node', trigger: 'QES trigger', off: 'QES trigger, check off', results: 'Verification Webhook Trigger' };
	return Object.entries(names)
		.filter(([key]) => result.summary[key]?.leftOut?.length)
		.map(([key, name]) => `Left out (n8n refused requests): ${name}, ${result.summary[key].leftOut.join('; ')}.`);
}

function renderTriggerText(result) {
	const s = result.settings;
	return [
		'',
		`Trigger (n8n ${result.n8nVersion}, n8n start): ${s.pings} distinct pings, ${s.concurrency} at a time, ${s.rounds} round(s) each (medians over rounds; ratio = trigger / plain Webhook node)`,
		...textTable(triggerRows(result)),
		...leftOutNotes(result),
		'',
	].join('\n');
}

function renderTriggerMarkdown(result) {
	const s = result.settings;
	return [
		'',
		`## Trigger (n8n ${result.n8nVersion}): ${s.pings} distinct pings, ${s.concurrency} at a time, ${s.rounds} round(s) each`,
		'',
		...markdownTable(triggerRows(result)),
		'',
		'Answer time: from sending the POST to the end of the answer, per ping. Ratios: trigger / plain Webhook node, same server, alternating rounds.',
		...leftOutNotes(result),
		'',
	].join('\n');
}

module.exports = { runTriggerBench, triggerSettings, renderTriggerText, renderTriggerMarkdown };

if (require.main === module) {
	(async () => {
		process.env.N8N_E2E_WORK_DIR ||= path.join(require('node:os').tmpdir(), 'n8n-nodes-verification-services-bench');
		const emulator = await startEmulator();
		try {
			const result = await runTriggerBench({ emulator, log: (m) => process.stderr.write(`[trigger-bench] ${m}\n`) });
			process.stdout.write(renderTriggerText(result));
			process.stdout.write(`${JSON.stringify(result)}\n`);
		} finally {
			await emulator.stop();
		}
	})().catch((error) => {
		process.stderr.write(`${error.stack ?? error}\n`);
		process.exit(1);
	});
}

'use strict';
// The many-executions rows of `npm run bench` (ME-*, bench/README.md's "Many executions"), also
// test/e2e/queue.e2e.test.js's shared-quota check.

const { account } = require('./emulator');
const { median } = require('./stats');
const { freshFetch } = require('../../test/e2e/lib/util');
const { node, action, chain } = require('../../test/e2e/lib/workflows');
const { createInstance } = require('../../test/e2e/lib/instance');
const { queueModeUnavailable, startQueueTopology } = require('../../test/e2e/lib/queue');
const { namesToItems, CREDENTIAL_TYPE } = require('./workflows');

const WEBHOOK_PATH = 'many-executions';

/** The run's item names: "Many <run>-<execution>-<item>", distinct over all executions of a run. */
const namesOf = (run, executions, items) =>
	Array.from({ length: executions }, (_, e) => Array.from({ length: items }, (_, i) => `Many ${run}-${e}-${i}`)).flat();

function manyExecutionsWorkflow({ id, credential }) {
	const webhook = node({
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: 'b5f0c6a2-7f57-4a43-9d8e-1c1f0a5e0e14',
		parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	});
	const names = "={{ Array.from({ length: $json.body.items }, (_, i) => 'Many ' + $json.body.run + '-' + $json.body.execution + '-' + i) }}";
	const aml = action({
		name: 'AML Check Individual',
		resource: 'aml',
		onError: 'continueRegularOutput',
		parameters: { resource: 'aml', operation: 'checkIndividual', name: '={{ $json.name }}', options: {} },
		credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
	});
	return chain('Many executions', [webhook, ...namesToItems(names), aml], { id });
}

/**
 * Fires `executions` webhook calls at once, each asking for `items` AML checks, and waits for all
 * answers. Returns { durationMs, okItems, errorItems, failedCalls, unanswered, ...account (429s, /auth,
 * lost) }. A call without an answer within `timeoutMs` is `unanswered`, not a failed call: n8n 2.x's
 * queue-mode webhook processor now and then never answers a call whose execution ran and succeeded
 * (the emulator's account still shows every item), so a caller that can tolerate that waits less.
 * The emulator must be prepared (reset, rate limit) by the caller.
 */
async function fireExecutions({ webhookBase, control, executions, items, run = Date.now().toString(36), timeoutMs = 10 * 60 * 1000 }) {
	const started = performance.now();
	const answers = await Promise.all(
		Array.from({ length: executions }, async (_, execution) => {
			try {
				const res = await freshFetch(`${webhookBase.replace(/\/$/, '')}/webhook/${WEBHOOK_PATH}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ run, execution, items }),
					signal: AbortSignal.timeout(timeoutMs),
				});
				const text = await res.text();
				if (!res.ok) return { error: `HTTP ${res.status} ${text.slice(0, 300)}` };
				const body = JSON.parse(text);
				return { items: Array.isArray(body) ? body : [body] };
			} catch (error) {
				return error?.name === 'TimeoutError' ? { unanswered: true } : { error: String(error) };
			}
		}),
	);
	const durationMs = performance.now() - started;
	let okItems = 0;
	let errorItems = 0;
	const callErrors = [];
	const unanswered = answers.filter((a) => a.unanswered).length;
	for (const a of answers) {
		if (a.error) callErrors.push(a.error);
		for (const item of a.items ?? []) {
			if (item && typeof item === 'object' && item.error === undefined) okItems++;
			else errorItems++;
		}
	}
	const seen = await account(control, namesOf(run, executions, items));
	return { durationMs, okItems, errorItems, failedCalls: callErrors.length, unanswered, callErrors: callErrors.slice(0, 3), ...seen };
}

/**
 * Creates the credential (pointing at the emulator) and the workflow in a running n8n and activates
 * it. Returns the workflow's id and the credential's reference { id, name } (the server chose the ids).
 */
async function setUpManyExecutions({ server, emulatorBaseUrl, apiKey, customerId, id = 'ManyExecWf00001' }) {
	const given = { id: 'ManyExecCred0001', name: 'Many executions credential' };
	await server.ensureLoggedIn();
	const { credentialIds, workflowIds } = await server.createCredentialsAndWorkflows({
		credentials: [{ ...given, type: CREDENTIAL_TYPE, data: { environment: 'sandbox', sandboxBaseUrl: emulatorBaseUrl, apiKey, customerId } }],
		workflows: [manyExecutionsWorkflow({ id, credential: given })],
	});
	await server.activateWorkflow(workflowIds[0]);
	return { workflowId: workflowIds[0], credential: { id: credentialIds[0], name: given.name } };
}

/** The ME-* rows: [executions, items] loads, each in regular and queue mode. */
const LOADS = [
	[20, 10],
	[4, 50],
];

/** Starts one regular n8n server or one queue topology with the bench workflow active. */
async function startMode(mode, { emulator, apiKey, customerId, log }) {
	let env;
	if (mode === 'regular') {
		const instance = await createInstance('v2', { name: 'bench-many', log });
		const server = await instance.startServer();
		env = { instance, server, webhookBase: server.url, stop: () => instance.stop() };
	} else {
		const topology = await startQueueTopology({ name: 'bench-queue', workers: 2, concurrency: 5, log });
		env = { instance: topology.main.instance, server: topology.main, webhookBase: topology.webhookUrl, stop: topology.stop };
	}
	try {
		await setUpManyExecutions({ server: env.server, emulatorBaseUrl: emulator.baseUrl, apiKey, customerId });
	} catch (error) {
		await env.stop();
		throw error;
	}
	return env;
}

/**
 * Runs the "many executions" group: one regular n8n server and one queue topology (2 workers,
 * concurrency 5), each load `runs` times under the emulator's rate limit. Returns rows for the report.
 * Without `fresh`, the runs of a mode share one n8n, so only its first run starts cold (the pacers
 * remember the quota for a minute); with `fresh`, every run gets a new n8n (or topology): all cold.
 * @param {{ emulator: object, rate: number, latencyMs: number, runs: number, modes?: string[], keys?: string[],
 *   fresh?: boolean, apiKey: string, customerId: string, log: Function }} opts
 */
async function runManyExecutions({ emulator, rate, latencyMs, runs, modes = ['regular', 'queue'], keys = [], fresh = false, apiKey, customerId, log }) {
	const rows = [];
	for (const mode of modes) {
		const wanted = LOADS.map(([e, i]) => ({ key: `ME-${mode}-${e}x${i}`, executions: e, items: i })).filter((c) => !keys.length || keys.includes(c.key));
		if (!wanted.length) continue;
		if (mode === 'queue' && queueModeUnavailable()) {
			log(`many executions, queue mode skipped: ${queueModeUnavailable()}`);
			continue;
		}
		let env = null;
		try {
			for (const cfg of wanted) {
				const perRun = [];
				for (let r = 0; r < runs; r++) {
					if (fresh && env) {
						await env.stop();
						env = null;
					}
					const cold = !env;
					env = env ?? (await startMode(mode, { emulator, apiKey, customerId, log }));
					await emulator.control.prepare({ latencyMs, rateLimit: rate });
					const result = await fireExecutions({ webhookBase: env.webhookBase, control: emulator.control, executions: cfg.executions, items: cfg.items, run: `${cfg.key}-${r}` });
					const n = cfg.executions * cfg.items;
					result.ratio = result.durationMs / ((n / rate) * 1000);
					result.cold = cold;
					perRun.push(result);
					log(
						`${cfg.key} run ${r + 1}/${runs}${cold ? ' (fresh n8n)' : ''}: ${(result.durationMs / 1000).toFixed(2)} s (${result.ratio.toFixed(2)}x N/rate) ok ${result.succeeded}/${n}` +
							` lost ${result.lost} 429 ${result.status429} /auth ${result.authCalls} error items ${result.errorItems}` +
							(result.failedCalls ? ` FAILED CALLS ${result.failedCalls}: ${result.callErrors.join(' | ')}` : ''),
					);
					// Let the pacers' learnt state age a little between runs, as between bursts of real traffic.
					if (!fresh) await new Promise((done) => setTimeout(done, 3000));
				}
				rows.push({ ...cfg, mode, fresh, count: cfg.executions * cfg.items, rate, perRun });
			}
		} finally {
			await env?.stop();
		}
	}
	return rows;
}

/** The rows as a text table (medians, and every run). */
function renderManyExecutions(rows) {
	if (!rows.length) return '';
	const lines = ['', 'Many executions (Webhook -> 10/50 items -> AML node, one credential, emulator limit per second as shown)', ''];
	lines.push('| key | mode | load | time (median) | x N/rate (median; every run) | 429 (every run) | items lost (every run) |');
	lines.push('| --- | --- | --- | --- | --- | --- | --- |');
	for (const row of rows) {
		const runs = row.perRun;
		const fresh = row.fresh ? ', fresh n8n every run' : ', first run cold';
		lines.push(
			`| ${row.key} | ${row.mode === 'queue' ? 'queue, 2 workers x 5' : 'regular'}${fresh} | ${row.executions} x ${row.items} @ ${row.rate}/s | ` +
				`${(median(runs.map((r) => r.durationMs)) / 1000).toFixed(2)} s | ${median(runs.map((r) => r.ratio)).toFixed(2)}x; ${runs.map((r) => r.ratio.toFixed(2)).join(', ')} | ` +
				`${runs.map((r) => r.status429).join(', ')} | ${runs.map((r) => r.lost).join(', ')} |`,
		);
	}
	return `${lines.join('\n')}\n`;
}

module.exports = { runManyExecutions, renderManyExecutions, manyExecutionsWorkflow, fireExecutions, setUpManyExecutions };

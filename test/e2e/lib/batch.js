'use strict';
// Runs many imported workflows in one n8n process: `n8n execute-batch` (n8n's start-up of ~5-10 s
// dominates a single `n8n execute`, so batching saves most of the time).
// Used by operations.e2e.test.js and golden.e2e.test.js.

const fs = require('node:fs');
const path = require('node:path');

/** execute-batch runs only the ids that have a digit (its --ids filter is /\d+/; with none left it runs every workflow). */
const BATCHABLE = /\d/;

/**
 * The ids of workflows a server created, made usable by runBatch: a workflow whose id has no digit
 * (about 1 in 17 of n8n's random ids) is created again from its stored copy until it gets one (the
 * copy without stays, inactive and never run).
 */
async function batchableIds(server, ids) {
	const usable = [];
	for (let id of ids) {
		while (!BATCHABLE.test(id)) [id] = await server.createWorkflows([await server.getWorkflow(id)]);
		usable.push(id);
	}
	return usable;
}

/**
 * Runs the workflows in one `n8n execute-batch` process. Returns a Map id -> { ok, execution, error }.
 * execute-batch prints nothing parseable by itself: --snapshot writes each successful execution
 * (the whole IRun, as `n8n execute --rawOutput` prints it) and --output the summary with errors.
 */
async function runBatch(instance, ids) {
	const unusable = ids.filter((id) => !BATCHABLE.test(id));
	if (unusable.length) throw new Error(`execute-batch would skip ids without a digit: ${unusable.join(', ')} (see batchableIds)`);
	const snapshotDir = path.join(instance.userFolder, 'snapshots');
	const summaryFile = path.join(instance.userFolder, 'batch-summary.json');
	fs.rmSync(snapshotDir, { recursive: true, force: true });
	fs.rmSync(summaryFile, { force: true });
	fs.mkdirSync(snapshotDir, { recursive: true });
	const res = await instance.n8n(
		['execute-batch', `--ids=${ids.join(',')}`, `--snapshot=${snapshotDir}`, `--output=${summaryFile}`, '--retries=0'],
		{ timeoutMs: 20 * 60 * 1000 },
	);
	let summary;
	try {
		summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
	} catch {
		const tail = (s) => s.split('\n').slice(-40).join('\n');
		throw new Error(
			`[${instance.version}] execute-batch wrote no summary (exit ${res.code ?? res.signal})\n--- stdout ---\n${tail(res.stdout)}\n--- stderr ---\n${tail(res.stderr)}`,
		);
	}
	const results = new Map();
	for (const id of ids) {
		const entry = summary.executions.find((e) => e.workflowId === id);
		const file = path.join(snapshotDir, `${id}-snapshot.json`);
		const execution = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
		const error = entry?.executionStatus === 'success' ? undefined : (entry?.error ?? 'workflow was not executed');
		results.set(id, { ok: Boolean(execution) && !error, execution, error, errorMessage: error });
	}
	return { results, durationMs: res.durationMs };
}

module.exports = { runBatch, batchableIds };

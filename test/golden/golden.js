'use strict';
// Golden workflows (CONTRIBUTING.md, "The golden workflows catch it"): the fixtures, how a run is
// compared with its expectation, and the run itself for golden.e2e.test.js and record.js.
// One run: the sandbox emulator, one n8n instance whose server creates the sandbox credentials pointed
// at it and every fixture. The ones that start with a Manual Trigger run in ONE `n8n execute-batch`
// process (test/e2e/lib/batch.js) on the same database, one workflow at a time, so each request the
// emulator logs belongs to the execution whose time span holds it (the server has nothing published
// yet, so it calls nobody). Then the server serves the ones that start with one of the package's
// triggers: each is published, gets its events from the emulator (TRIGGER_EVENTS), and its
// executions and the requests since its publication are compared.

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../sandbox/server');
const { createInstance } = require('../e2e/lib/instance');
const { batchableIds, runBatch } = require('../e2e/lib/batch');
const { nodeDescriptions } = require('../e2e/lib/package-nodes');
const { emulatorControl } = require('../e2e/lib/util');
const { EXAMPLE_CREDENTIALS, SANDBOX_CREDENTIAL, sandboxCredential } = require('../e2e/lib/workflows');
const { control, emulatorPing, postJson, settleExecutions, waitUntil } = require('../e2e/trigger-helpers');

const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
const EXPECTED_DIR = path.join(__dirname, 'expected');
const PACKAGE = 'n8n-nodes-verification-services';

const SIGNING_CREDENTIAL = EXAMPLE_CREDENTIALS[1];

/** The fixtures, by file name without .json, in name order. */
function loadFixtures() {
	return fs
		.readdirSync(WORKFLOWS_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ name: file.slice(0, -'.json'.length), workflow: JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8')) }));
}

const expectedFile = (name) => path.join(EXPECTED_DIR, `${name}.json`);

function loadExpected(name) {
	const file = expectedFile(name);
	return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

// ---------------------------------------------------------------------------------------------
// What a run is compared by

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const LONG_HEX = /\b[0-9a-f]{16,}\b/gi;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g;
const DISPLAY_TIME = /\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}/g;
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
/** Fields that carry secrets (a webhook's auth header, a token): never written into an expectation. */
const SECRET_FIELD = /secret|password|token|signature|api-?key/i;
/** A KYB register document's id: named like a token, compared like any id. */
const NOT_SECRET = new Set(['linkToken']);
/** Fields whose value the emulator makes up anew on every run (random tokens, clock readings). */
const RANDOM_FIELDS = new Set(['mobileAppToken', 'iat', 'exp', 'updatedOn', 'createdOn', 'expiresIn']);

/**
 * A value with what differs from run to run replaced: ids the emulator makes up become <id:1>,
 * <id:2>, ... numbered in order of appearance within the workflow (so "the id Open Journey returned
 * is the one Add Image sent" is still compared), clock readings <time>, the emulator's origin
 * <emulator>, n8n's own origin <n8n>, the credential's key and customer ID <api key> / <customer id>, secrets <secret>.
 */
function normalizer({ emulatorOrigin, n8nOrigin = '\u0000' }) {
	const ids = new Map();
	const idFor = (raw) => {
		const key = raw.toLowerCase();
		if (!ids.has(key)) ids.set(key, `<id:${ids.size + 1}>`);
		return ids.get(key);
	};
	const text = (s) =>
		s
			.split(SANDBOX_CREDENTIAL.data.apiKey)
			.join('<api key>')
			.split(SANDBOX_CREDENTIAL.data.customerId)
			.join('<customer id>')
			.split(emulatorOrigin)
			.join('<emulator>')
			.split(n8nOrigin)
			.join('<n8n>')
			.replace(JWT, '<token>')
			.replace(TIMESTAMP, '<time>')
			.replace(DISPLAY_TIME, '<time>')
			.replace(UUID, idFor)
			.replace(LONG_HEX, idFor);
	const value = (v, key) => {
		if (RANDOM_FIELDS.has(key) && v !== null && v !== undefined) return `<${typeof v}>`;
		if (typeof v === 'string' && key && SECRET_FIELD.test(key) && !NOT_SECRET.has(key)) return '<secret>';
		if (typeof v === 'string') return text(v);
		if (Array.isArray(v)) return v.map((x) => value(x));
		if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), value(x, k)]));
		return v;
	};
	return value;
}

/** A binary property as both n8n versions describe it (1.x keeps small files inline, 2.x by id). */
const binaryMeta = (b) => ({ mimeType: b.mimeType, fileName: b.fileName, fileExtension: b.fileExtension });

/**
 * Names added beside the answer after the golden workflows were saved. An addition breaks no saved
 * workflow, so they are left out of the comparison; test/shared/evidence.test.ts and
 * test/nodes/aml.test.ts pin them.
 */
const ADDED_BESIDE_THE_ANSWER = ['evidence'];
const ADDED_TO_THE_SCREENING_SUMMARY = ['fingerprints', 'newRecordIds', 'changedRecordIds', 'needsReview'];

function asSaved(json) {
	const out = { ...json };
	for (const name of ADDED_BESIDE_THE_ANSWER) delete out[name];
	if (out.screeningSummary && typeof out.screeningSummary === 'object') {
		out.screeningSummary = { ...out.screeningSummary };
		for (const name of ADDED_TO_THE_SCREENING_SUMMARY) delete out.screeningSummary[name];
	}
	return out;
}

/** Every node's runs: its items (json, binary descriptions) per output, or its error message. */
function nodeRuns(execution) {
	const runData = execution.data?.resultData?.runData ?? execution.resultData?.runData ?? {};
	const nodes = {};
	for (const [name, runs] of Object.entries(runData)) {
		nodes[name] = runs.map((run) => {
			if (run.error) return { error: run.error.message };
			return (run.data?.main ?? []).map((items) =>
				(items ?? []).map((item) => ({
					json: asSaved(item.json),
					...(item.binary ? { binary: Object.fromEntries(Object.entries(item.binary).map(([k, b]) => [k, binaryMeta(b)])) } : {}),
					...(item.error ? { error: item.error.message } : {}),
				})),
			);
		});
	}
	return nodes;
}

/** The requests the API received during an execution (token exchanges left out: once per process). */
const apiRequests = (requests) =>
	requests
		.filter((r) => r.route !== 'POST /auth')
		.map((r) => ({ method: r.method, path: r.path, ...(Object.keys(r.query ?? {}).length ? { query: r.query } : {}), ...(r.body !== null ? { body: r.body } : {}) }));

// ---------------------------------------------------------------------------------------------
// The triggers' events

/** What the provider sends the package's trigger, by source: the emulator delivers it, once the trigger is published. */
const TRIGGER_EVENTS = {
	qesStatus: {
		executions: 1,
		/** Published: the emulator holds n8n's webhook URL, which answers a header-less POST with 401. */
		ready: async ({ sandbox, url }) => (await control(sandbox, 'GET', '/webhook')).status === 200 && (await postJson(url, {})).status === 401,
		send: async ({ sandbox }) => {
			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed');
			if (!delivery.delivered) throw new Error(`the QES ping was not delivered: ${JSON.stringify(delivery)}`);
		},
	},
	signedResult: {
		executions: 2,
		ready: async ({ url }) => (await postJson(url, {})).status === 401,
		send: async ({ sandbox, url }) => {
			const emulator = (route, body) => emulatorControl(sandbox.url, 'POST', route, body);
			await emulator('results/webhook', { url, signingSecret: SIGNING_CREDENTIAL.data.signingSecret });
			await emulator('results/journey', { transactionId: 'tx-golden-0001', success: 'PASS' });
			await emulator('results/payment', { referenceId: 'ref-golden-0001', status: 'SUCCESS' });
		},
	},
};

/** The package's trigger a fixture starts with, if any. */
const triggerOf = (workflow) => workflow.nodes.find((n) => n.type === `${PACKAGE}.verificationServicesTrigger`);

// ---------------------------------------------------------------------------------------------
// Running

/**
 * Runs every fixture in n8n `version` against a fresh emulator. Returns a Map name ->
 * { ok, error, actual: { requests, nodes } } with the run's variable values normalized.
 */
async function runGolden(version, { log = () => {}, fixtures = loadFixtures() } = {}) {
	const sandbox = await startSandbox({ port: 0 });
	let instance;
	try {
		instance = await createInstance(version, { name: 'golden', log });
		const server = await instance.startServer();
		const base = `${server.url}/`;
		await server.ensureLoggedIn();
		const { workflowIds } = await server.createCredentialsAndWorkflows({
			credentials: [sandboxCredential(sandbox.baseUrl), SIGNING_CREDENTIAL],
			workflows: fixtures.map((f) => f.workflow),
		});
		const ids = await batchableIds(server, workflowIds);
		const created = fixtures.map((f, i) => ({ ...f, id: ids[i] }));
		const outcome = new Map();
		const manual = created.filter((f) => !triggerOf(f.workflow));
		const triggered = created.filter((f) => triggerOf(f.workflow));
		if (manual.length) for (const [name, result] of await runManual({ instance, sandbox, fixtures: manual, log })) outcome.set(name, result);
		if (triggered.length) for (const [name, result] of await runTriggered({ instance, server, base, sandbox, fixtures: triggered, log })) outcome.set(name, result);
		return outcome;
	} finally {
		if (instance) await instance.destroy();
		await sandbox.close();
	}
}

const requestLog = (sandbox) => emulatorControl(sandbox.url, 'GET', 'requests');

/** The Manual Trigger fixtures (with their `id`s in n8n), in one execute-batch beside the idle server. */
async function runManual({ instance, sandbox, fixtures, log }) {
	const { results, durationMs } = await runBatch(instance, fixtures.map((f) => f.id));
	log(`${instance.version}: ${fixtures.length} golden workflows in ${(durationMs / 1000).toFixed(1)} s`);
	const requests = await requestLog(sandbox);
	const outcome = new Map();
	for (const { name, workflow, id } of fixtures) {
		const result = results.get(id);
		if (!result.ok) {
			// execute-batch keeps a failure's description at best; `n8n execute` tells its message.
			const alone = await instance.execute(id);
			const where = alone.lastNodeExecuted ? ` (node "${alone.lastNodeExecuted}")` : '';
			const stale = staleParameters(workflow);
			const error = alone.ok ? `${result.errorMessage} in execute-batch; it passed when run alone` : `${alone.errorMessage}${where}`;
			outcome.set(name, { ok: false, error: stale.length ? `${error}; the saved workflow names what the node no longer declares:\n  ${stale.join('\n  ')}` : error });
			continue;
		}
		const { startedAt, stoppedAt } = result.execution;
		const during = requests.filter((r) => r.receivedAt >= new Date(startedAt).toISOString() && r.receivedAt <= new Date(stoppedAt).toISOString());
		const normalize = normalizer({ emulatorOrigin: sandbox.url });
		// Outputs first: ids are numbered where a node first shows them, requests then refer to them.
		const nodes = normalize(nodeRuns(result.execution));
		outcome.set(name, { ok: true, actual: { requests: normalize(apiRequests(during)), nodes } });
	}
	return outcome;
}

/** The trigger fixtures (with their `id`s), in the server at `base`: each published, sent its events, its executions read. */
async function runTriggered({ instance, server, base, sandbox, fixtures, log }) {
	const outcome = new Map();
	for (const { name, workflow, id } of fixtures) {
		const trigger = triggerOf(workflow);
		const events = TRIGGER_EVENTS[trigger.parameters.source];
		const url = `${base}webhook/${trigger.webhookId}/webhook`;
		try {
			const logged = (await requestLog(sandbox)).length;
			await server.activateWorkflow(id);
			await waitUntil(`${name} published`, async () => await events.ready({ sandbox, url }));
			await events.send({ sandbox, url });
			const list = await settleExecutions(server, id, events.executions);
			const executions = [];
			for (const summary of [...list].reverse()) executions.push(await server.getExecution(summary.id));
			const failed = executions.find((e) => e.status !== 'success');
			if (failed) throw new Error(`execution ${failed.id} ended ${failed.status}: ${failed.data?.resultData?.error?.message}`);
			const normalize = normalizer({ emulatorOrigin: sandbox.url, n8nOrigin: base.slice(0, -1) });
			const nodes = normalize(executions.map((e) => nodeRuns(e)));
			const requests = normalize(apiRequests((await requestLog(sandbox)).slice(logged)));
			outcome.set(name, { ok: true, actual: { requests, executions: nodes } });
		} catch (error) {
			outcome.set(name, { ok: false, error: error.message });
		}
	}
	log(`${instance.version}: ${fixtures.length} golden trigger workflows run`);
	return outcome;
}

/** Where `actual` differs from `expected`, as "path: expected X, got Y" lines (at most `limit`). */
function differences(expected, actual, limit = 20) {
	const found = [];
	const show = (v) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 200));
	const walk = (e, a, at) => {
		if (found.length >= limit) return;
		if (e && a && typeof e === 'object' && typeof a === 'object' && Array.isArray(e) === Array.isArray(a)) {
			const keys = Array.isArray(e) ? [...Array(Math.max(e.length, a.length)).keys()] : [...new Set([...Object.keys(e), ...Object.keys(a)])];
			for (const k of keys) walk(e[k], a[k], Array.isArray(e) ? `${at}[${k}]` : `${at}.${k}`);
			return;
		}
		if (!Object.is(e, a)) found.push(`${at.replace(/^\./, '')}: expected ${show(e)}, got ${show(a)}`);
	};
	walk(expected, actual, '');
	return found;
}

/**
 * The expectation of a fixture in n8n `version` (recorded apart where that version answered
 * otherwise); the newest 2.x (`next`) is held to the pinned 2.x's.
 */
function expectationFor(expected, version) {
	const { byVersion = {}, ...common } = expected;
	return byVersion[version] ?? (version === 'next' ? byVersion.v2 : undefined) ?? common;
}

/**
 * What a saved workflow names that the built nodes no longer declare: a parameter, an option value,
 * a field of a collection or fixed collection. n8n drops such a value when it loads the workflow and
 * fills in the default instead, so these lines name a rename directly. Expressions are not judged.
 */
function staleParameters(workflow, descriptions = nodeDescriptions()) {
	const byType = new Map(descriptions.map((d) => [`${PACKAGE}.${d.name}`, d]));
	const stale = [];
	const isExpression = (v) => typeof v === 'string' && v.startsWith('=');
	const checkValue = (where, candidates, value) => {
		// A list the node loads at run time (loadOptionsMethod) accepts any value.
		if (isExpression(value) || candidates.some((p) => p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions)) return;
		const types = new Set(candidates.map((p) => p.type));
		if (types.has('options') && typeof value === 'string' && !candidates.some((p) => (p.options ?? []).some((o) => o.value === value))) {
			stale.push(`${where}: option value "${value}" is not declared`);
		}
		if (types.has('multiOptions') && Array.isArray(value)) {
			for (const v of value) if (!candidates.some((p) => (p.options ?? []).some((o) => o.value === v))) stale.push(`${where}: option value "${v}" is not declared`);
		}
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			const nested = candidates.filter((p) => p.type === 'collection' || p.type === 'fixedCollection').flatMap((p) => p.options ?? []);
			if (!nested.length) return;
			for (const [key, inner] of Object.entries(value)) {
				const found = nested.filter((o) => o.name === key);
				if (!found.length) {
					stale.push(`${where}.${key}: not declared`);
					continue;
				}
				const groups = found.filter((o) => Array.isArray(o.values));
				if (groups.length) {
					for (const entry of [inner].flat()) {
						for (const [field, v] of Object.entries(entry ?? {})) {
							const fields = groups.flatMap((g) => g.values).filter((f) => f.name === field);
							if (!fields.length) stale.push(`${where}.${key}.${field}: not declared`);
							else checkValue(`${where}.${key}.${field}`, fields, v);
						}
					}
				} else {
					checkValue(`${where}.${key}`, found, inner);
				}
			}
		}
	};
	for (const node of workflow.nodes) {
		const description = byType.get(node.type);
		if (!description) continue;
		for (const [key, value] of Object.entries(node.parameters ?? {})) {
			const candidates = description.properties.filter((p) => p.name === key);
			if (!candidates.length) stale.push(`${node.name}: parameter "${key}" is not declared by ${description.name}`);
			else checkValue(`${node.name}: ${key}`, candidates, value);
		}
	}
	return stale;
}

/** The package's node types and operations a fixture uses, as "node.operation" (triggers: "node"). */
function operationsOf(workflow) {
	return workflow.nodes
		.filter((n) => n.type.startsWith(`${PACKAGE}.`))
		.map((n) => [n.type.slice(PACKAGE.length + 1), n.parameters?.resource, n.parameters?.operation, n.parameters?.source].filter(Boolean).join('.'));
}

module.exports = { EXPECTED_DIR, PACKAGE, loadFixtures, loadExpected, expectedFile, runGolden, operationsOf, normalizer, differences, expectationFor, staleParameters };

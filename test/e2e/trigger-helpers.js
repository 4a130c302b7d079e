'use strict';
// What the trigger suites share (trigger, webhook-trigger, trigger-acknowledge; golden, queue and the
// example suites use some too). In n8n 2.x (2.40, N8N_WORKFLOWS_USE_WORKFLOW_PUBLICATION_SERVICE=true
// by default) POST /rest/workflows/:id/activate and /deactivate only queue the change in an outbox:
// the webhooks are added or removed (and the node's create / delete webhook methods run) a moment
// AFTER the REST call returned, hence the waits below. The QES trigger keeps only the SHA-256 (hex) of
// the registered secret in static data (registration.secretSha256), never the secret.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, packageManifest } = require('./lib/instance');
const { trigger, noOp, chain } = require('./lib/workflows');
const { jsonOrText, sha256, sleep, freshFetch, waitUntil, freePort, defaultLog, emulatorCall, emulatorControl, e2eVersions } = require('./lib/util');

const QES_TRIGGER = 'QES Onboarding Trigger';
const RESULTS_TRIGGER = 'Verification Webhook Trigger';
const SECRET_HEADER = 'X-Verification-Webhook-Secret';
const CONFIGURE = 'POST /onboarding/configureWebhook';

/** A workflow of the trigger on QES status pings (its `options`) and a NoOp. */
const qesWorkflow = (name, credentials, options) => chain(name, [trigger({ name: QES_TRIGGER, source: 'qesStatus', parameters: { options }, credentials }), noOp()]);

/** A workflow of the trigger on signed results (`parameters`) and the nodes `after` it. */
const resultsWorkflow = (name, credentials, parameters, { after = [noOp()] } = {}) =>
	chain(name, [trigger({ name: RESULTS_TRIGGER, source: 'signedResult', parameters, credentials }), ...after]);

/**
 * A trigger suite, declared inside its describe(). Before its steps: the emulator and an n8n server of
 * `version` (`n8n start`) with two credentials created through the REST API, `api` (pointed at the
 * emulator) and `webhook` (holding suite.signingSecret), and the workflows `workflows({ api, webhook })`
 * returns by key (its arguments are a node's `credentials` value; each workflow starts with its
 * trigger): suite.ids[key] and suite.urls[key] (its production webhook URL); then `ready()`.
 * After them: closeSuite and the suite's timings.
 * step(title, fn) is a test that marks the suite failed (its n8n folder is kept) and adds the server
 * log's tail to its error; with `sequential` (the steps build on each other) a step after a failed one
 * is skipped.
 * @returns {{ step: Function, log: (msg: string) => void, restart: (env?: object) => Promise<void>,
 *   activate: (workflowId: string, url: string) => Promise<void>, signingSecret: string, timings: object,
 *   ids: Record<string, string>, urls: Record<string, string>, sandbox?: object, instance?: object, server?: object, failed: boolean }}
 */
function triggerSuite({ version, name, workflows, ready = () => {}, sequential = true, stepTimeoutMs = 5 * 60 * 1000 }) {
	const { test, before, after } = require('node:test');
	const log = (msg) => defaultLog(`[${name}] ${version}: ${msg}`);
	const suite = { log, failed: false, timings: {}, ids: {}, urls: {}, signingSecret: `whsec-e2e-${crypto.randomBytes(16).toString('hex')}` };
	let started;

	const startServer = async (env) => {
		const server = await suite.instance.startServer({ port: suite.port, env });
		await server.ensureLoggedIn();
		return server;
	};
	/** Stops n8n and starts it again on the same user folder and port, with `env` added. */
	suite.restart = async (env) => {
		await suite.server.stop();
		suite.server = null;
		suite.server = await startServer(env);
		suite.timings.restartMs = suite.server.startupMs;
	};
	/** Activates a webhook-trigger workflow and waits until n8n serves its production URL (an unsigned POST gets the node's 401). */
	suite.activate = async (workflowId, url) => {
		await suite.server.activateWorkflow(workflowId);
		await waitUntil(`${url} to answer an unsigned POST with 401`, async () => (await probeWebhook(url)) === 401);
	};
	suite.step = (title, fn) =>
		test(title, { timeout: stepTimeoutMs }, async (t) => {
			if (sequential && suite.failed) return t.skip('an earlier step of this suite failed');
			try {
				await fn(t);
			} catch (error) {
				suite.failed = true;
				if (suite.server) error.message += `\n--- n8n server log (tail) ---\n${suite.server.readLog().split('\n').slice(-40).join('\n')}`;
				throw error;
			}
		});

	before(
		async () => {
			started = Date.now();
			try {
				const manifest = packageManifest();
				if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
				suite.sandbox = await startSandbox({ port: 0, host: '127.0.0.1', config: { latencyMs: 0 } });
				suite.instance = await createInstance(version, { name });
				suite.timings.instanceMs = Date.now() - started;
				suite.port = await freePort();
				suite.server = await startServer();
				suite.timings.firstStartMs = suite.server.startupMs;
				const credentials = {
					api: { name: 'Verification sandbox (e2e)', type: 'verificationServicesApi', data: { environment: 'sandbox', sandboxBaseUrl: suite.sandbox.baseUrl, apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID } },
					webhook: { name: 'Provider webhook secret (e2e)', type: 'verificationServicesWebhookApi', data: { signingSecret: suite.signingSecret } },
				};
				const ids = await suite.server.createCredentials(Object.values(credentials));
				const refs = Object.fromEntries(Object.entries(credentials).map(([key, c], i) => [key, { [c.type]: { id: ids[i], name: c.name } }]));
				const list = Object.entries(workflows(refs));
				const created = await suite.server.createWorkflows(list.map(([, workflow]) => workflow));
				for (const [i, [key, { nodes }]] of list.entries()) [suite.ids[key], suite.urls[key]] = [created[i], `http://127.0.0.1:${suite.port}/webhook/${nodes[0].webhookId}/webhook`];
				await ready();
			} catch (error) {
				suite.failed = true;
				throw error;
			}
		},
		{ timeout: 45 * 60 * 1000 }, // may include the first install of the n8n runtime
	);
	after(
		async () => {
			try {
				await closeSuite({ ...suite, log });
			} finally {
				log(`suite took ${((Date.now() - started) / 1000).toFixed(1)} s ${JSON.stringify(suite.timings)}`);
			}
		},
		{ timeout: 2 * 60 * 1000 },
	);
	return suite;
}

// ---------------------------------------------------------------------------------------------
// Emulator controls (sandbox/README.md, "Controls")

/** A control call of the emulator (route: '/webhook', ...): { status, body }, never throwing on a status. */
const control = async (sandbox, method, route, body) => await emulatorCall(sandbox.url, method, route.slice(1), body);

/** GET /__control/webhook: the stored webhook {id, url, metadata, createdAt}, or null when none. */
async function storedWebhook(sandbox) {
	const res = await control(sandbox, 'GET', '/webhook');
	if (res.status === 404) return null;
	assert.equal(res.status, 200, `GET /__control/webhook: ${JSON.stringify(res.body)}`);
	return res.body;
}

/** How many API requests a route got (GET /__control/stats, e.g. "POST /onboarding/configureWebhook"). */
const routeCount = async (sandbox, route) => (await emulatorControl(sandbox.url, 'GET', 'stats')).counts[route] ?? 0;

/** POST /__control/qes/ping: the emulator pings the stored URL with the stored headers; {delivered, status, body}. */
const emulatorPing = async (sandbox, sessionId, status, extra) => await emulatorControl(sandbox.url, 'POST', 'qes/ping', { sessionId, status, extra });

// ---------------------------------------------------------------------------------------------
// Webhook calls made by the test itself

/**
 * POSTs JSON (an object, or a text sent as it is) to a webhook URL; never throws on an HTTP status.
 * @returns {Promise<{ status: number, data: any }>} data: the answer parsed as JSON when it is
 */
async function postJson(url, body, headers = {}) {
	const res = await freshFetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	return { status: res.status, data: jsonOrText(await res.text()) };
}

/**
 * What n8n answers a header-less POST on the trigger's production URL: 404 while no webhook is
 * registered in n8n, the node's 401 while it is (no execution starts either way).
 */
const probeWebhook = async (url) => (await postJson(url, { probe: true, at: Date.now() })).status;

// ---------------------------------------------------------------------------------------------
// Waiting (waitUntil is lib/util's)

/** The node's static data (`node:<name>` in the workflow's staticData) as n8n has stored it. */
async function nodeStaticData(server, workflowId, nodeName) {
	const wf = await server.getWorkflow(workflowId);
	let data = wf.staticData;
	if (typeof data === 'string') data = data === '' ? {} : JSON.parse(data);
	return data?.[`node:${nodeName}`];
}

/**
 * Waits until an activation of a QES status trigger workflow has fully taken effect: the emulator
 * got `configureCount` configureWebhook calls, n8n serves the production URL (a header-less POST gets
 * the node's 401) and the node's static data holds the registration whose secretSha256 is the hash of
 * the secret the emulator stored. Then waits 1.5 s more and checks that no further configureWebhook
 * call came.
 * @returns {Promise<{webhook: object, registration: object}>}
 */
async function waitForActivation({ sandbox, server }, workflowId, url, configureCount) {
	let state;
	await waitUntil(`activation: ${configureCount} ${CONFIGURE} call(s), webhook served, registration stored`, async () => {
		const count = await routeCount(sandbox, CONFIGURE);
		assert.ok(count <= configureCount, `more ${CONFIGURE} calls than expected: ${count} > ${configureCount}`);
		if (count < configureCount) return false;
		if ((await probeWebhook(url)) !== 401) return false;
		const webhook = await storedWebhook(sandbox);
		const registration = (await nodeStaticData(server, workflowId, QES_TRIGGER))?.registration;
		if (!webhook || !registration) return false;
		const secret = webhook.metadata?.authHeader?.[SECRET_HEADER];
		if (typeof secret !== 'string' || registration.secretSha256 !== sha256(secret)) return false;
		state = { webhook, registration };
		return true;
	});
	await sleep(1500);
	assert.equal(await routeCount(sandbox, CONFIGURE), configureCount, `no further ${CONFIGURE} call`);
	return state;
}

/**
 * Waits until a deactivation of a QES status trigger workflow has fully taken effect: the
 * production URL answers 404 and the node's static data no longer holds a registration.
 */
async function waitForDeactivation(server, workflowId, url) {
	await waitUntil('deactivation: production webhook gone and registration forgotten', async () => {
		if ((await probeWebhook(url)) !== 404) return false;
		return !(await nodeStaticData(server, workflowId, QES_TRIGGER))?.registration;
	});
}

// ---------------------------------------------------------------------------------------------
// Executions

/** The workflow's execution count and its newest `limit` executions, read without their data. */
async function executionSummaries(server, workflowId, limit) {
	const data = await server.get('/rest/executions', { query: { filter: JSON.stringify({ workflowId }), limit: String(limit) } });
	return { count: data.count, results: data.results ?? [] };
}

const countExecutions = async (server, workflowId) => (await executionSummaries(server, workflowId, 1)).count;

/**
 * Waits until the workflow has `expected` executions and none of the newest 20 is left running, then
 * `quietMs` more, and checks that no further one came; returns the ids of the newest `fresh` of them.
 */
async function settleCount(server, workflowId, expected, { fresh = 0, quietMs = 3000, timeoutMs = 120000 } = {}) {
	await waitUntil(`${expected} finished executions of workflow ${workflowId}`, async () => {
		const { count, results } = await executionSummaries(server, workflowId, Math.max(20, fresh));
		if (count > expected) throw new Error(`workflow ${workflowId} has ${count} executions, expected ${expected}`);
		return count === expected && results.every((e) => !['new', 'running', 'waiting'].includes(e.status));
	}, { timeoutMs });
	await sleep(quietMs);
	const { count, results } = await executionSummaries(server, workflowId, Math.max(1, fresh));
	assert.equal(count, expected, `exactly ${expected} executions of workflow ${workflowId}`);
	return results.slice(0, fresh).map((e) => String(e.id));
}

/** All executions of the workflow (any status), newest first. */
const executions = async (server, workflowId) => await server.listExecutions(workflowId, { limit: 100 });

/**
 * Waits until the workflow has `count` finished executions, then 2 s longer so that an extra one
 * would show; returns the list (newest first).
 */
async function settleExecutions(server, workflowId, count) {
	await server.waitForExecutions(workflowId, { count, timeoutMs: 60000 });
	await sleep(2000);
	return await executions(server, workflowId);
}

/** A JSON text `depth` levels deep: {"a": {"a": ... {"end": true} ... }}. */
const nestedJson = (depth) => `${'{"a":'.repeat(depth)}{"end":true}${'}'.repeat(depth)}`;

/** How deep a parsed nestedJson() goes, and its innermost `end`: [depth, true] when it arrived whole. */
function nesting(value) {
	let depth = 0;
	for (; value?.a !== undefined; depth++) value = value.a;
	return [depth, value?.end];
}

/**
 * A suite's teardown: its n8n instance removed, or stopped and kept (with its server logs) when a step
 * failed; its emulator closed. Throws the first error after trying both.
 */
async function closeSuite({ instance, sandbox, failed, log }) {
	const errors = [];
	if (instance) {
		try {
			if (failed) {
				await instance.stop();
				log(`kept ${instance.userFolder} for inspection`);
			} else {
				await instance.destroy();
			}
		} catch (error) {
			errors.push(error);
		}
	}
	if (sandbox) await sandbox.close().catch((error) => errors.push(error));
	if (errors.length) throw errors[0];
}

module.exports = {
	CONFIGURE,
	QES_TRIGGER,
	RESULTS_TRIGGER,
	SECRET_HEADER,
	closeSuite,
	control,
	countExecutions,
	e2eVersions,
	emulatorPing,
	executions,
	nestedJson,
	nesting,
	nodeStaticData,
	postJson,
	probeWebhook,
	qesWorkflow,
	resultsWorkflow,
	routeCount,
	settleCount,
	settleExecutions,
	storedWebhook,
	triggerSuite,
	waitForActivation,
	waitForDeactivation,
	waitUntil,
};

'use strict';
// Helpers the trigger suites share (trigger, webhook-trigger, trigger-acknowledge; golden too):
//  - the sandbox emulator's controls (stored webhook, route counts, pings);
//  - waiting for an activation / deactivation to take effect. In n8n 2.x (2.40, with the default
//    N8N_WORKFLOWS_USE_WORKFLOW_PUBLICATION_SERVICE=true) POST /rest/workflows/:id/activate and
//    /deactivate only record the change and queue it in an outbox; the webhooks are added / removed
//    (and the node's create / delete webhook methods run) a moment AFTER the REST call returned. So
//    right after lib/rest.js activateWorkflow() the API may not have been called yet, and right
//    after deactivateWorkflow() the production webhook may still start executions.
//  - reading a node's static data through GET /rest/workflows/:id.
// The node keeps only the SHA-256 (hex) of the registered secret in static data (registration.secretSha256),
// never the secret: compare it with util.sha256() of the header value the emulator stored.

const assert = require('node:assert/strict');
const { jsonOrText, sha256, sleep, freshFetch, waitUntil } = require('./lib/util');

// ---------------------------------------------------------------------------------------------
// Emulator controls (sandbox/README.md, "Controls")

async function control(sandbox, method, route, body) {
	const res = await freshFetch(`${sandbox.url}/__control${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: jsonOrText(await res.text()) };
}

/** GET /__control/webhook: the stored webhook {id, url, metadata, createdAt}, or null when none. */
async function storedWebhook(sandbox) {
	const res = await control(sandbox, 'GET', '/webhook');
	if (res.status === 404) return null;
	assert.equal(res.status, 200, `GET /__control/webhook: ${JSON.stringify(res.body)}`);
	return res.body;
}

/** How many API requests a route got (GET /__control/stats, e.g. "POST /onboarding/configureWebhook"). */
async function routeCount(sandbox, route) {
	const res = await control(sandbox, 'GET', '/stats');
	assert.equal(res.status, 200, `GET /__control/stats: ${JSON.stringify(res.body)}`);
	return res.body.counts[route] ?? 0;
}

/** POST /__control/qes/ping: the emulator pings the stored URL with the stored headers; {delivered, status, body}. */
async function emulatorPing(sandbox, sessionId, status, extra) {
	const res = await control(sandbox, 'POST', '/qes/ping', { sessionId, status, ...(extra ? { extra } : {}) });
	assert.equal(res.status, 200, `POST /__control/qes/ping: ${JSON.stringify(res.body)}`);
	return res.body;
}

// ---------------------------------------------------------------------------------------------
// Webhook calls made by the test itself

/**
 * POSTs JSON (an object, or a text sent as it is) to a webhook URL; never throws on an HTTP status.
 * @returns {Promise<{ status: number, data: any, headers: Headers }>} data: the answer parsed as JSON when it is
 */
async function postJson(url, body, headers = {}) {
	const res = await freshFetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	return { status: res.status, data: jsonOrText(await res.text()), headers: res.headers };
}

/**
 * What n8n answers a header-less POST on the trigger's production URL: 404 while no webhook is
 * registered in n8n, the node's 401 while it is (no execution starts either way).
 */
async function probeWebhook(url) {
	const res = await postJson(url, { probe: true, at: Date.now() });
	return res.status;
}


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
 * Waits until an activation has fully taken effect: the emulator got `configureCount`
 * configureWebhook calls, n8n serves the production URL (a header-less POST gets the node's 401)
 * and the node's static data holds the registration whose secretSha256 is the hash of the secret
 * the emulator stored. Then waits
 * `quietMs` more and checks that no further configureWebhook call came.
 * @returns {Promise<{webhook: object, registration: object}>}
 */
async function waitForActivation({ sandbox, server, workflowId, nodeName, url, configureRoute, configureCount, secretHeader, quietMs = 1500, timeoutMs = 60000 }) {
	let state;
	await waitUntil(
		`activation: ${configureCount} ${configureRoute} call(s), webhook served, registration stored`,
		async () => {
			const count = await routeCount(sandbox, configureRoute);
			assert.ok(count <= configureCount, `more ${configureRoute} calls than expected: ${count} > ${configureCount}`);
			if (count < configureCount) return false;
			if ((await probeWebhook(url)) !== 401) return false;
			const webhook = await storedWebhook(sandbox);
			const registration = (await nodeStaticData(server, workflowId, nodeName))?.registration;
			if (!webhook || !registration) return false;
			const secret = webhook.metadata?.authHeader?.[secretHeader];
			if (typeof secret !== 'string' || registration.secretSha256 !== sha256(secret)) return false;
			state = { webhook, registration };
			return true;
		},
		{ timeoutMs },
	);
	await sleep(quietMs);
	assert.equal(await routeCount(sandbox, configureRoute), configureCount, `no further ${configureRoute} call`);
	return state;
}

/**
 * Waits until a deactivation has fully taken effect: the production URL answers 404 and the node's
 * static data no longer holds a registration.
 */
async function waitForDeactivation({ server, workflowId, nodeName, url, timeoutMs = 60000 }) {
	await waitUntil(
		'deactivation: production webhook gone and registration forgotten',
		async () => {
			if ((await probeWebhook(url)) !== 404) return false;
			const data = await nodeStaticData(server, workflowId, nodeName);
			return !data?.registration;
		},
		{ timeoutMs },
	);
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
async function settleCount(server, workflowId, expected, { fresh = 0, quietMs = 3000, timeoutMs = 120000, intervalMs = 250 } = {}) {
	await waitUntil(`${expected} finished executions of workflow ${workflowId}`, async () => {
		const { count, results } = await executionSummaries(server, workflowId, Math.max(20, fresh));
		if (count > expected) throw new Error(`workflow ${workflowId} has ${count} executions, expected ${expected}`);
		return count === expected && results.every((e) => !['new', 'running', 'waiting'].includes(e.status));
	}, { timeoutMs, intervalMs });
	await sleep(quietMs);
	const { count, results } = await executionSummaries(server, workflowId, Math.max(1, fresh));
	assert.equal(count, expected, `exactly ${expected} executions of workflow ${workflowId}`);
	return results.slice(0, fresh).map((e) => String(e.id));
}

/** All executions of the workflow (any status), newest first. */
async function executions(server, workflowId) {
	return await server.listExecutions(workflowId, { limit: 100 });
}

/**
 * Waits until the workflow has `count` finished executions, then `quietMs` longer so that an extra
 * one would show; returns the list (newest first).
 */
async function settleExecutions(server, workflowId, count, { quietMs = 2000, timeoutMs = 60000 } = {}) {
	await server.waitForExecutions(workflowId, { count, timeoutMs });
	await sleep(quietMs);
	return await executions(server, workflowId);
}

/** Ids of the executions in `afterList` that are not in `beforeList`. */
function newIds(beforeList, afterList) {
	const seen = new Set(beforeList.map((e) => String(e.id)));
	return afterList.filter((e) => !seen.has(String(e.id))).map((e) => String(e.id));
}

/**
 * n8n's public webhook base on loopback. n8n 2.x names WEBHOOK_URL deprecated in favour of
 * N8N_WEBHOOK_URL (both work there); 1.x knows only WEBHOOK_URL.
 */
function serverEnv(port, extra = {}) {
	const base = `http://127.0.0.1:${port}/`;
	return { WEBHOOK_URL: base, N8N_WEBHOOK_URL: base, ...extra };
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
	closeSuite,
	control,
	storedWebhook,
	routeCount,
	emulatorPing,
	postJson,
	probeWebhook,
	waitUntil,
	nodeStaticData,
	waitForActivation,
	waitForDeactivation,
	countExecutions,
	settleCount,
	executions,
	settleExecutions,
	newIds,
	serverEnv,
};

'use strict';
// A small client for n8n's internal REST API (/rest/...), as the editor UI uses it: cookie auth
// (`n8n-auth`) plus the `browser-id` header the auth cookie is bound to. Every call opens a new
// connection (util.freshFetch: a kept-alive one breaks while a busy n8n 1.x blocks its event loop).
// The request and answer shapes are those of n8n 1.123.x and 2.40.7 (read in their sources); every
// JSON answer is wrapped in { data: ... }, which the helpers unwrap.

const path = require('node:path');
const crypto = require('node:crypto');
const { jsonOrText, freshFetch, sleep, waitUntil } = require('./util');

const OWNER = {
	email: 'owner@e2e.test',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Password-1234',
};

class RestError extends Error {
	constructor(method, url, status, body) {
		super(`${method} ${url} -> HTTP ${status}: ${typeof body === 'string' ? body.slice(0, 500) : JSON.stringify(body).slice(0, 500)}`);
		this.status = status;
		this.body = body;
	}
}

/** A succeeded or failed execution whose stored data does not show its last node (yet). */
function finishedWithoutItsData(exec) {
	if (!['success', 'error'].includes(exec?.status)) return false;
	const { runData, lastNodeExecuted, error } = exec.data?.resultData ?? {};
	return !error && !(lastNodeExecuted && runData?.[lastNodeExecuted]);
}

/** @param {{ baseUrl: string, version: 'v1'|'v2', runtimeDir: string }} opts */
function createRestClient({ baseUrl, version, runtimeDir }) {
	const cookies = new Map();
	const browserId = crypto.randomUUID();

	function storeCookies(res) {
		const list = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [];
		for (const c of list) {
			const [pair] = c.split(';');
			const i = pair.indexOf('=');
			const name = pair.slice(0, i).trim();
			const value = pair.slice(i + 1).trim();
			if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') cookies.delete(name);
			else cookies.set(name, value);
		}
	}

	/** Returns the answer's body (its `data` unless `raw`); throws RestError on HTTP >= 400. */
	async function request(method, urlPath, { body, query, raw = false } = {}) {
		const url = new URL(urlPath, baseUrl);
		for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
		const h = { 'browser-id': browserId, accept: 'application/json' };
		if (cookies.size) h.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
		let payload;
		if (body !== undefined) {
			h['content-type'] = 'application/json';
			payload = JSON.stringify(body);
		}
		const res = await freshFetch(url, { method, headers: h, body: payload, redirect: 'manual', signal: AbortSignal.timeout(120000) });
		storeCookies(res);
		const text = await res.text();
		const parsed = (res.headers.get('content-type') ?? '').includes('json') ? jsonOrText(text) : text;
		if (res.status >= 400) throw new RestError(method, url.pathname + url.search, res.status, parsed);
		return !raw && parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	const client = {
		/** GET/POST/PATCH shortcuts that return the unwrapped `data`. */
		async get(p, opts) {
			return await request('GET', p, opts);
		},
		async post(p, body) {
			return await request('POST', p, { body });
		},
		async patch(p, body) {
			return await request('PATCH', p, { body });
		},

		/** Creates the instance owner (first call only) and keeps its auth cookie. */
		async setupOwner() {
			return await client.post('/rest/owner/setup', OWNER);
		},

		/** setupOwner() when the instance has no owner yet, else logs in (both versions take `emailOrLdapLoginId`). */
		async ensureLoggedIn() {
			try {
				return await client.setupOwner();
			} catch (error) {
				if (!(error instanceof RestError) || error.status !== 400) throw error;
				return await client.post('/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
			}
		},

		/**
		 * Creates credentials as the editor does (the server encrypts `data`): cheaper than a CLI import,
		 * which loads every node of n8n in a process of its own. Both versions choose the ids.
		 * @param {{ name: string, type: string, data: object }[]} list
		 * @returns {Promise<string[]>} their ids, in order
		 */
		async createCredentials(list) {
			const ids = [];
			for (const { name, type, data } of list) ids.push(String((await client.post('/rest/credentials', { name, type, data })).id));
			return ids;
		},

		/**
		 * Creates workflows as the editor does, inactive (1.123 needs `active: false`; execution order
		 * v1 unless `settings` says otherwise), with their pinData and meta. Both versions choose the ids
		 * (1.123 drops a given one) and 2.40 drops staticData; a name is cut to the 128 characters both
		 * allow here (the CLI import takes longer ones, and some saved fixtures have them). Their ids, in order.
		 */
		async createWorkflows(list) {
			const ids = [];
			for (const { name, nodes, connections, settings, pinData, meta, staticData } of list) {
				const body = { name: name.slice(0, 128), nodes, connections, settings: settings ?? { executionOrder: 'v1' }, pinData, meta, staticData, active: false };
				ids.push(String((await client.post('/rest/workflows', body)).id));
			}
			return ids;
		},

		/**
		 * Creates `credentials`, then `workflows` whose nodes refer to them: a node's reference to a
		 * credential of its type with the same id (as the caller gave it) or name is pointed at the
		 * id the server chose; other references stay as they are. The callers' objects are not changed.
		 * @param {{ credentials?: { id?: string, name: string, type: string, data: object }[], workflows?: object[] }} entities
		 * @returns {Promise<{ credentialIds: string[], workflowIds: string[] }>} the server's ids, in order
		 */
		async createCredentialsAndWorkflows({ credentials = [], workflows = [] }) {
			const credentialIds = await client.createCredentials(credentials);
			const created = credentials.map((c, i) => ({ ...c, given: c.id, id: credentialIds[i] }));
			const pointed = (type, ref) =>
				created.find((c) => c.type === type && c.given !== undefined && c.given === ref?.id) ?? created.find((c) => c.type === type && c.name === ref?.name);
			const rewritten = workflows.map((w) => ({
				...w,
				nodes: w.nodes.map((n) => {
					if (!n.credentials) return n;
					const refs = Object.entries(n.credentials).map(([type, ref]) => {
						const c = pointed(type, ref);
						return [type, c ? { id: c.id, name: c.name } : ref];
					});
					return { ...n, credentials: Object.fromEntries(refs) };
				}),
			}));
			return { credentialIds, workflowIds: await client.createWorkflows(rewritten) };
		},

		async getWorkflow(id) {
			return await client.get(`/rest/workflows/${id}`);
		},

		/**
		 * Activates (2.x: publishes) a workflow: POST /rest/workflows/:id/activate with its current
		 * versionId. 2.40 publishes through an outbox worker, so this then polls
		 * GET /rest/workflows/:id/publication-status until the triggers are live (throws when they
		 * fail). 1.123 activates synchronously (it has no publication status).
		 * @returns {Promise<object>} the workflow as the activate call returned it
		 */
		async activateWorkflow(id, { timeoutMs = 60000 } = {}) {
			const wf = await client.getWorkflow(id);
			const activated = await client.post(`/rest/workflows/${id}/activate`, { versionId: wf.versionId });
			if (version === 'v1') return activated;
			await waitUntil(`workflow ${id} to be published`, async () => {
				const st = await client.get(`/rest/workflows/${id}/publication-status`);
				if (st.status === 'failed' || st.status === 'partial') {
					throw new Error(`workflow ${id} publication ${st.status}: ${JSON.stringify(st.triggers)}`);
				}
				return st.status === 'published' && (!st.liveVersionId || st.liveVersionId === wf.versionId);
			}, { timeoutMs, intervalMs: 200 });
			return activated;
		},

		async deactivateWorkflow(id) {
			return await client.post(`/rest/workflows/${id}/deactivate`, {});
		},

		/**
		 * Executions of a workflow, newest first: [{ id, status, mode, startedAt, stoppedAt, ... }].
		 */
		async listExecutions(workflowId, { limit = 50, status } = {}) {
			const filter = { workflowId };
			if (status) filter.status = Array.isArray(status) ? status : [status];
			const data = await client.get('/rest/executions', { query: { filter: JSON.stringify(filter), limit: String(limit) } });
			return data.results ?? data;
		},

		/**
		 * One execution with its `data` decoded (n8n stores it "flatted"): data.resultData.runData ...
		 * n8n 1.x on SQLite stores the final status and the final data in two updates outside a
		 * transaction (ExecutionRepository.updateExistingExecution with pool size 0): a finished
		 * execution whose data has not arrived yet is fetched again, for up to `settleMs`.
		 */
		async getExecution(id, { settleMs = 10000 } = {}) {
			const started = Date.now();
			for (;;) {
				const exec = await client.get(`/rest/executions/${id}`);
				if (exec && typeof exec.data === 'string') {
					const flatted = require(path.join(runtimeDir, 'node_modules', 'flatted'));
					exec.data = flatted.parse(exec.data);
				}
				if (!finishedWithoutItsData(exec) || Date.now() - started > settleMs) return exec;
				await sleep(250);
			}
		},

		/** Polls an execution until it has finished; returns it with its data (see getExecution). */
		async waitForExecution(id, { timeoutMs = 120000 } = {}) {
			return await waitUntil(`execution ${id} to finish`, async () => {
				const exec = await client.getExecution(id);
				return !['new', 'running', 'waiting'].includes(exec.status) && exec;
			}, { timeoutMs });
		},

		/**
		 * Starts a workflow as the editor's "Execute workflow" button does (POST /rest/workflows/:id/run,
		 * from the trigger named `trigger`); returns the execution's id without waiting for its end.
		 */
		async startWorkflow(id, { trigger } = {}) {
			const workflowData = await client.getWorkflow(id);
			const { executionId } = await client.post(`/rest/workflows/${id}/run`, { workflowData, ...(trigger ? { triggerToStartFrom: { name: trigger } } : {}) });
			if (!executionId) throw new Error(`workflow ${id} did not start (it waits for a webhook call?)`);
			return executionId;
		},

		/** startWorkflow(), then the finished execution with its data. */
		async runWorkflow(id, { trigger, timeoutMs } = {}) {
			return await client.waitForExecution(await client.startWorkflow(id, { trigger }), { timeoutMs });
		},

		/** Polls listExecutions until `count` finished executions exist. */
		async waitForExecutions(workflowId, { count = 1, timeoutMs = 30000 } = {}) {
			return await waitUntil(`${count} finished executions of workflow ${workflowId}`, async () => {
				const list = await client.listExecutions(workflowId);
				const done = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
				return done.length >= count && done;
			}, { timeoutMs });
		},

		/** All node type descriptions the server knows (GET /types/nodes.json, needs login). */
		async getNodeTypes() {
			return await request('GET', '/types/nodes.json', { raw: true });
		},

		/**
		 * Runs the credential type's test (as the editor's "Test" button does) with `data` for the stored
		 * credential `id`: POST /rest/credentials/test { credentials: { id, name, type, data } }.
		 * @returns {Promise<{ status: 'OK'|'Error', message: string }>}
		 */
		async testCredential(credentials) {
			return await client.post('/rest/credentials/test', { credentials });
		},

		/** POSTs `body` to a webhook: <url>/webhook/<path>, or /webhook-test/ (`test`) while the editor listens. */
		async callWebhook(webhookPath, { body, test = false } = {}) {
			const url = `${baseUrl}/${test ? 'webhook-test' : 'webhook'}/${webhookPath}`;
			const res = await freshFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			return { status: res.status, body: jsonOrText(await res.text()), headers: res.headers };
		},
	};
	return client;
}

module.exports = { createRestClient, OWNER };

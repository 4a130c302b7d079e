'use strict';
// What the trigger and flood rows share: POSTs to n8n's webhooks, N at a time, signed like the
// provider's journey results, and the count of the executions they started.

const crypto = require('node:crypto');

const { trigger } = require('../../test/e2e/lib/workflows');

const RESULTS_CREDENTIAL_TYPE = 'verificationServicesWebhookApi';
const SIGNING_SECRET = `bench-${crypto.randomBytes(16).toString('hex')}`;

/** POSTs JSON; resolves with { status, ms, body } (never throws on HTTP status; ms = request to end of answer). */
async function post(url, body, headers = {}) {
	const t0 = performance.now();
	try {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(60000),
		});
		const text = await res.text();
		let parsed = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			/* keep text */
		}
		return { status: res.status, ms: performance.now() - t0, body: parsed };
	} catch (error) {
		return { status: 0, ms: performance.now() - t0, body: String(error?.message ?? error) };
	}
}

/** Runs `count` jobs with at most `concurrency` in flight; returns their results in order. */
async function pool(count, concurrency, job) {
	const results = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const i = next++;
			results[i] = await job(i);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return results;
}

/** The Signature header of a body the provider sends: hex HMAC-SHA256 of its exact bytes. */
const signed = (body) => ({ Signature: crypto.createHmac('sha256', SIGNING_SECRET).update(JSON.stringify(body)).digest('hex') });

/** The package's trigger on signed results checking SIGNING_SECRET, whose credential is imported into `instance`. */
async function resultsTrigger(instance, { webhookId }) {
	const credential = { name: 'Bench webhook secret', type: RESULTS_CREDENTIAL_TYPE, data: { signingSecret: SIGNING_SECRET } };
	const [id] = await instance.importCredentials([credential]);
	return trigger({
		name: 'Verification Webhook Trigger',
		source: 'signedResult',
		webhookId,
		credentials: { [RESULTS_CREDENTIAL_TYPE]: { id, name: credential.name } },
	});
}

/** How many executions match n8n's executions `filter` (e.g. { workflowId, status: ['success'] }). */
async function executionCount(server, filter) {
	const data = await server.get('/rest/executions', { query: { filter: JSON.stringify(filter), limit: '1' } });
	return data.count ?? (data.results ?? data).length;
}

module.exports = { post, pool, signed, resultsTrigger, executionCount };

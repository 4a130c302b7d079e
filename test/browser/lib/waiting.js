'use strict';
// Examples that pause in a Wait or Form step (e.g. "wait for the code the user types in"): the test
// plays the user. It reads the paused execution over REST and answers the step the way the person
// would: an OTP code comes from the emulator's control API (what the phone would receive), a human
// review's approval from the e-mail it sent (the SMTP sink).

const { freshFetch } = require('../../e2e/lib/util');
const { REVIEWER_USER_AGENT } = require('../../e2e/lib/smtp-sink');

const WAIT = 'n8n-nodes-base.wait';
const FORM = 'n8n-nodes-base.form';

/** The paused execution of `workflowId` and the node it waits in, or null. */
async function waitingStep(server, workflowId) {
	const list = await server.listExecutions(workflowId, { status: 'waiting' }).catch(() => []);
	const execution = (Array.isArray(list) ? list : (list?.results ?? list?.data ?? []))[0];
	if (!execution) return null;
	const full = await server.getExecution(execution.id);
	const nodeName = full?.data?.resultData?.lastNodeExecuted;
	return nodeName ? { executionId: execution.id, nodeName, execution: full } : null;
}

/** Every string the run produced so far under a key named referenceId (phone OTP requests). */
function referenceIds(execution) {
	const found = [];
	const walk = (v, key) => {
		if (typeof v === 'string' && key === 'referenceId') found.push(v);
		else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
	};
	walk(execution?.data?.resultData?.runData);
	return [...new Set(found)];
}

async function otpFor(sandbox, execution) {
	for (const ref of referenceIds(execution).reverse()) {
		const res = await freshFetch(`${sandbox.url}/__control/phone/${ref}`);
		if (res.ok) return (await res.json()).otp;
	}
	return undefined;
}

/**
 * The resume URL as n8n hands it to the workflow ($execution.resumeUrl / $execution.resumeFormUrl):
 * n8n 2.x adds the execution's resume token as `?signature=`; 1.x has none.
 */
function resumeUrl(server, kind, waiting) {
	const url = new URL(`${server.url}/${kind}/${waiting.executionId}`);
	const token = waiting.execution?.data?.resumeToken;
	if (token) url.searchParams.set('signature', token);
	return url.toString();
}

/** Answers the waiting step. Returns { ok } or { ok: false, reason }. */
async function resumeWaiting({ server, sandbox, smtp, workflow, waiting }) {
	const node = workflow.nodes.find((n) => n.name === waiting.nodeName);
	if (!node) return { ok: false, reason: 'the waiting node is not in the example' };
	if (node.type.endsWith('HitlTool') && smtp) {
		const { approve } = smtp.links(await smtp.nextMessage(() => true, { timeoutMs: 10000 }));
		const res = await freshFetch(approve, { headers: { 'user-agent': REVIEWER_USER_AGENT } });
		return res.ok ? { ok: true } : { ok: false, reason: `the review's approve link answered ${res.status}` };
	}
	const otp = await otpFor(sandbox, waiting.execution);
	if (node.type === WAIT && node.parameters?.resume === 'webhook') {
		const body = otp === undefined ? {} : { code: otp, otp, securityFactor: otp };
		const res = await freshFetch(resumeUrl(server, 'webhook-waiting', waiting), {
			method: node.parameters.httpMethod ?? 'GET',
			headers: { 'content-type': 'application/json' },
			body: (node.parameters.httpMethod ?? 'GET') === 'GET' ? undefined : JSON.stringify(body),
		});
		return res.ok ? { ok: true } : { ok: false, reason: `webhook-waiting answered ${res.status}` };
	}
	if (node.type === FORM) {
		const fields = node.parameters?.formFields?.values ?? [];
		const form = new FormData();
		fields.forEach((f, i) => form.append(`field-${i}`, /code|otp|pin/i.test(f.fieldLabel ?? '') && otp !== undefined ? String(otp) : 'test'));
		const res = await freshFetch(resumeUrl(server, 'form-waiting', waiting), { method: 'POST', body: form });
		return res.ok ? { ok: true } : { ok: false, reason: `form-waiting answered ${res.status}` };
	}
	if (node.type === WAIT) return { ok: false, reason: `a Wait step resuming on "${node.parameters?.resume ?? 'time interval'}"` };
	return { ok: false, reason: `${node.type} waits for something this test cannot answer` };
}

module.exports = { waitingStep, resumeWaiting };

'use strict';

// The person's and the payer's side of the hosted flows (sandbox/README.md, "Hosted journeys and
// payments by bank"): the pages uiHandle and redirectUrl point at, and the control calls that end a
// journey or move a payment on. Each end delivers the signed result to the URL registered with
// POST /__control/results/webhook, through the provider's delivery machinery (result-delivery.js);
// with no URL registered, only the state changes.

const { ApiError, found, ok, sendBytes } = require('./http-util');
const { deliverResult } = require('./result-controls');
const { optionalObject } = require('./validation');

const VERDICTS = ['PASS', 'DECLINE', 'REVIEW', 'FLAG'];
const JOURNEY_STATUSES = ['complete', 'processing', 'aborted', 'closed', 'error'];
/** The statuses POST /payments/status documents. */
const PAYMENT_STATUSES = [
	'PROCESSING',
	'SUCCESS',
	'INITIATED',
	'PENDING',
	'PENDING_EXTERNAL_AUTHORIZATION',
	'FAILURE_GENERIC',
	'FAILURE_PERMISSION_DENIED',
	'FAILURE_CANCELED',
	'FAILURE_EXPIRED',
	'FAILURE_INSUFFICIENT_FUNDS',
	'FAILURE_DECLINED',
	'SETTLEMENT_IN_PROGRESS',
	'SETTLEMENT_COMPLETED',
	'SETTLEMENT_INCOMPLETE',
	'COMPLETED',
	'FAILED',
];
/** Where a payment waits for the payer; any other status is an end the payer's visit does not change. */
const OPEN_PAYMENT = ['INITIATED', 'PENDING', 'PENDING_EXTERNAL_AUTHORIZATION'];

function oneOf(value, allowed, name) {
	if (!allowed.includes(value)) throw new ApiError(400, `${name} must be one of ${allowed.join(', ')}`);
	return value;
}

/** What a control call passes on to the delivery: resends, waiting, encryption, hex case. */
function deliveryOptions(body) {
	const options = {};
	for (const key of ['retries', 'wait', 'encrypt', 'hexCase']) if (body[key] !== undefined) options[key] = body[key];
	return options;
}

async function deliverIfRegistered(state, kind, body) {
	if (!state.resultWebhook) return { delivery: null };
	return await deliverResult(state, kind, body);
}

/** Ends a hosted journey with a verdict and delivers its signed result (passThroughData included). */
async function completeJourney(state, transactionId, body) {
	const journey = found(state.hostedJourneys, transactionId, 'Hosted journey');
	const success = oneOf(body.success === undefined ? 'PASS' : body.success, VERDICTS, 'success');
	const status = oneOf(body.status === undefined ? 'complete' : body.status, JOURNEY_STATUSES, 'status');
	optionalObject(body, 'extra');
	Object.assign(journey, { status, success, completedAt: new Date().toISOString() });
	const extra = { ...(journey.passThroughData ? { passThroughData: journey.passThroughData } : {}), ...(body.extra || {}) };
	const sent = await deliverIfRegistered(state, 'journeyResult', { transactionId, status, success, extra, ...deliveryOptions(body) });
	return { journey, ...sent };
}

/** Moves a payment to `status` (recorded in its history) and delivers its signed result unless `deliver` is false. */
async function movePayment(state, payment, status, body = {}) {
	oneOf(status, PAYMENT_STATUSES, 'status');
	if (body.statusReasonInformation !== undefined && typeof body.statusReasonInformation !== 'string') throw new ApiError(400, 'statusReasonInformation must be a string');
	const statusReasonInformation = body.statusReasonInformation ?? `Payment ${status.toLowerCase().replace(/_/g, ' ')}`;
	Object.assign(payment, { status, statusReasonInformation });
	payment.history.push({ status, at: new Date().toISOString() });
	if (body.deliver === false) return { payment, delivery: null };
	const { referenceId, requestId } = payment;
	const sent = await deliverIfRegistered(state, 'paymentResult', { referenceId, requestId, status, statusReasonInformation, ...deliveryOptions(body) });
	return { payment, ...sent };
}

const HOSTED_CONTROL_ROUTES = [
	['GET', '/hosted-journeys', ({ state }) => ok([...state.hostedJourneys.values()])],
	['GET', '/hosted-journeys/:transactionId', ({ state, params }) => ok(found(state.hostedJourneys, params.transactionId, 'Hosted journey'))],
	['POST', '/hosted-journeys/:transactionId/complete', async ({ state, params, body }) => ok(await completeJourney(state, params.transactionId, body))],
	['GET', '/payments', ({ state }) => ok([...state.payments.values()])],
	['GET', '/payments/:referenceId', ({ state, params }) => ok(found(state.payments, params.referenceId, 'Payment'))],
	[
		'POST',
		'/payments/:referenceId/status',
		async ({ state, params, body }) => {
			if (typeof body.status !== 'string') throw new ApiError(400, 'status is required');
			return ok(await movePayment(state, found(state.payments, params.referenceId, 'Payment'), body.status, body));
		},
	],
];

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res, status, title, paragraphs) {
	const html = `<!doctype html><title>${escape(title)}</title><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}`;
	sendBytes(res, status, Buffer.from(html), { 'Content-Type': 'text/html; charset=utf-8' });
}

/** The page a person opens from uiHandle: it stands for the provider's UI; the journey ends by a control call. */
function journeyPage(state, res, transactionId) {
	const journey = state.hostedJourneys.get(transactionId);
	if (!journey) return page(res, 404, 'Hosted journey not found', []);
	journey.opened += 1;
	return page(res, 200, 'Sandbox hosted identity journey', [
		`Journey ${escape(transactionId)} (process ${escape(journey.processName)}), status ${escape(journey.status)}.`,
		`End it with POST /__control/hosted-journeys/${escape(transactionId)}/complete {"success": "PASS"}.`,
	]);
}

/**
 * The page a payer opens from redirectUrl, standing for their bank: an open payment is authorised
 * there and ends in `?status=` (default SUCCESS), its signed result delivered without waiting. The
 * page links back to returnUrl rather than redirecting, so a test that opens it stays on loopback.
 */
async function paymentPage(state, res, requestId, query) {
	const payment = [...state.payments.values()].find((p) => p.requestId === requestId);
	if (!payment) return page(res, 404, 'Payment not found', []);
	if (OPEN_PAYMENT.includes(payment.status)) {
		const status = query.get('status') || 'SUCCESS';
		if (!PAYMENT_STATUSES.includes(status)) return page(res, 400, 'Unknown payment status', [escape(status)]);
		await movePayment(state, payment, 'PENDING_EXTERNAL_AUTHORIZATION', { deliver: false });
		await movePayment(state, payment, status, { wait: false });
	}
	return page(res, 200, 'Sandbox bank', [
		`Payment ${escape(payment.referenceId)} of ${escape(payment.amount)} ${escape(payment.currency)}: ${escape(payment.status)}.`,
		`<a href="${escape(payment.returnUrl)}">Back to the shop</a>`,
	]);
}

/** Answers a GET under /journey/ or /pay/: the page of a journey (by transactionId) or of a payment (by requestId). */
async function handleHostedPage(state, req, res, url) {
	req.resume();
	const match = /^\/(journey|pay)\/([^/]+)$/.exec(url.pathname);
	let id = '';
	try {
		id = match ? decodeURIComponent(match[2]) : '';
	} catch {
		// not an id: answered 404 below
	}
	if (!match || id === '') page(res, 404, 'Not found', []);
	else if (match[1] === 'journey') journeyPage(state, res, id);
	else await paymentPage(state, res, id, url.searchParams);
}

module.exports = { HOSTED_CONTROL_ROUTES, PAYMENT_STATUSES, handleHostedPage };

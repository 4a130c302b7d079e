'use strict';

// Controls under /__control/results: the emulator plays the provider's side of the hosted journey
// and payment webhooks (sandbox/README.md, "Signed results").

const crypto = require('node:crypto');

const { ApiError, found, ok } = require('./http-util');
const { FORGERIES, forge, journeyResult, paymentResult } = require('./signed-results');
const { postBytes } = require('./webhook');
const { isPlainObject, optionalObject } = require('./validation');

const HEX_CASES = ['lower', 'upper', 'mixed'];

function requireTarget(state) {
	if (!state.resultWebhook) throw new ApiError(409, 'No results webhook set (POST /__control/results/webhook)');
	return state.resultWebhook;
}

function optionalString(body, name) {
	const value = body[name];
	if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) throw new ApiError(400, `${name} must be a non-blank string`);
	return value;
}

function hexCaseOf(body) {
	if (body.hexCase !== undefined && !HEX_CASES.includes(body.hexCase)) throw new ApiError(400, `hexCase must be one of ${HEX_CASES.join(', ')}`);
	return body.hexCase || 'lower';
}

/**
 * Stand-in for the provider's undocumented payload encryption: base64 of IV (12 bytes) + GCM tag
 * (16 bytes) + AES-256-GCM ciphertext, key = SHA-256 of the signing secret. Sent as text/plain.
 */
function encrypt(json, secret) {
	const iv = crypto.randomBytes(12);
	const cipher = crypto.createCipheriv('aes-256-gcm', crypto.createHash('sha256').update(secret).digest(), iv);
	const sealed = Buffer.concat([cipher.update(JSON.stringify(json)), cipher.final()]);
	return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The body a control call asks for: a journey or payment result (optionally encrypted), or given bytes. */
function payloadOf(kind, body, secret) {
	optionalObject(body, 'extra');
	let json;
	if (kind === 'journeyResult') {
		json = journeyResult({
			transactionId: optionalString(body, 'transactionId'),
			status: optionalString(body, 'status'),
			success: optionalString(body, 'success'),
			extra: body.extra,
		});
	} else if (kind === 'paymentResult') {
		json = paymentResult({
			referenceId: optionalString(body, 'referenceId'),
			requestId: optionalString(body, 'requestId'),
			status: optionalString(body, 'status'),
			statusReasonInformation: optionalString(body, 'statusReasonInformation'),
			extra: body.extra,
		});
	} else if (typeof body.rawBody === 'string') {
		return { bytes: Buffer.from(body.rawBody, 'utf8'), contentType: optionalString(body, 'contentType') || 'application/json' };
	} else if (body.body !== undefined) {
		return { bytes: Buffer.from(JSON.stringify(body.body), 'utf8'), contentType: optionalString(body, 'contentType') || 'application/json' };
	} else {
		throw new ApiError(400, 'rawBody (string) or body is required');
	}
	if (body.encrypt === true) return { json, bytes: Buffer.from(encrypt(json, secret)), contentType: 'text/plain' };
	return { json, bytes: Buffer.from(JSON.stringify(json), 'utf8'), contentType: 'application/json' };
}

/**
 * Starts a delivery with the provider's retries (`retries` overrides the config's) to the registered
 * URL; resolves {delivery, payload?} when it is done, or at once when `wait` is false.
 */
async function deliverResult(state, kind, body) {
	const target = requireTarget(state);
	const { json, bytes, contentType } = payloadOf(kind, body, target.signingSecret);
	const timing = { ...state.config.resultDelivery };
	if (body.retries !== undefined) {
		if (!Number.isInteger(body.retries) || body.retries < 0 || body.retries > 6) throw new ApiError(400, 'retries must be an integer from 0 to 6');
		timing.retries = body.retries;
	}
	const { record, finished } = state.resultDeliveries.start(target, { kind, bytes, contentType, hexCase: hexCaseOf(body) }, timing);
	if (body.wait !== false) await finished;
	return { delivery: record, ...(json ? { payload: json } : {}) };
}

const deliver = async (state, kind, body) => ok(await deliverResult(state, kind, body));

const RESULT_CONTROL_ROUTES = [
	[
		'GET',
		'/results/webhook',
		({ state }) => {
			const target = requireTarget(state);
			return ok({ url: target.url });
		},
	],
	[
		'POST',
		'/results/webhook',
		({ state, body }) => {
			const url = optionalString(body, 'url');
			const signingSecret = optionalString(body, 'signingSecret');
			if (!url || !/^https?:\/\//.test(url)) throw new ApiError(400, 'url must be an absolute http or https URL');
			if (!signingSecret) throw new ApiError(400, 'signingSecret is required');
			state.resultWebhook = { url, signingSecret };
			return ok({ url });
		},
	],
	['POST', '/results/journey', async ({ state, body }) => await deliver(state, 'journeyResult', body)],
	['POST', '/results/payment', async ({ state, body }) => await deliver(state, 'paymentResult', body)],
	['POST', '/results/raw', async ({ state, body }) => await deliver(state, 'raw', body)],
	['GET', '/results/deliveries/:id', ({ state, params }) => ok(found(state.resultDeliveries, params.id, 'Delivery'))],
	[
		'POST',
		'/results/replay',
		async ({ state, body }) => {
			const copies = body.copies === undefined ? 1 : body.copies;
			if (!Number.isInteger(copies) || copies < 1 || copies > 100) throw new ApiError(400, 'copies must be an integer from 1 to 100');
			const answers = await state.resultDeliveries.replay(String(body.deliveryId), {
				copies,
				atOnce: body.atOnce === true,
				answerTimeoutMs: state.config.resultDelivery.answerTimeoutMs,
			});
			if (!answers) throw new ApiError(404, 'Delivery not found');
			return ok({ answers });
		},
	],
	['GET', '/results/forgeries', () => ok(Object.entries(FORGERIES).map(([kind, { what }]) => ({ kind, what })))],
	[
		'POST',
		'/results/forge',
		async ({ state, body }) => {
			const target = requireTarget(state);
			if (!Object.prototype.hasOwnProperty.call(FORGERIES, body.kind)) throw new ApiError(400, `kind must be one of ${Object.keys(FORGERIES).join(', ')}`);
			// What to forge: a payment or journey result (fields as for /results/payment, /results/journey), given bytes, or a new journey result.
			let [kind, spec] = ['journeyResult', {}];
			if (isPlainObject(body.payment)) [kind, spec] = ['paymentResult', body.payment];
			else if (isPlainObject(body.journey)) spec = body.journey;
			else if (body.rawBody !== undefined || body.body !== undefined) [kind, spec] = ['raw', body];
			const { bytes, contentType } = payloadOf(kind, spec, target.signingSecret);
			const forged = forge(body.kind, { bytes, contentType, secret: target.signingSecret });
			const res = await postBytes(target.url, forged.bytes, forged.headers, state.config.resultDelivery.answerTimeoutMs);
			return ok({ kind: body.kind, what: FORGERIES[body.kind].what, status: res.status, answer: res.body, ...(res.error ? { error: res.error } : {}) });
		},
	],
];

module.exports = { RESULT_CONTROL_ROUTES, deliverResult };

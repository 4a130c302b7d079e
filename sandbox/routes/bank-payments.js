'use strict';

// Payments by bank: initiation (the payer is sent to redirectUrl, a page of this emulator that
// stands for their bank) and the payment's status. The payer's visit or a control call moves the
// payment on and delivers the signed result (hosted-flows.js).

const crypto = require('node:crypto');
const { ApiError, found, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');
const { inEnvelope } = require('../generation');

function initiate({ body, state, origin }) {
	const referenceId = v.requireString(body, 'referenceId');
	const transactionDescription = v.requireString(body, 'transactionDescription');
	const returnUrl = v.requireString(body, 'returnUrl');
	if (!v.isHttpUrl(returnUrl)) throw v.bad('returnUrl must be an absolute http or https URL');
	const IBAN = v.requireString(body, 'IBAN');
	if (!v.isIban(IBAN)) throw v.bad('IBAN must be an IBAN (upper case, no spaces) with matching check digits');
	const currency = v.requirePattern(body, 'currency', /^[A-Z]{3}$/, 'must be a 3-letter currency code in upper case');
	const amount = v.requirePattern(body, 'amount', /^\d+(\.\d{1,2})?$/, 'must be a decimal string with at most two decimals');
	if (!(Number(amount) > 0)) throw v.bad('amount must be above 0');
	const storedBIC = v.optionalPattern(body, 'storedBIC', /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'must be a BIC of 8 or 11 characters');
	const language = v.optionalPattern(body, 'language', /^[a-z]{2}$/, 'must be a two-letter ISO 639-1 code');
	const country = v.optionalPattern(body, 'country', /^[A-Z]{2}$/, 'must be a two-letter ISO 3166-1 code');
	// One payment per reference: a second initiation with the same referenceId would be a second payment.
	if (state.payments.has(referenceId)) throw new ApiError(409, 'referenceId already used for a payment');

	const requestId = crypto.randomUUID();
	const redirectUrl = `${origin}/pay/${requestId}`;
	const at = new Date().toISOString();
	const payment = {
		referenceId,
		requestId,
		redirectUrl,
		transactionDescription,
		returnUrl,
		IBAN,
		currency,
		amount,
		storedBIC: storedBIC ?? null,
		language: language ?? null,
		country: country ?? null,
		status: 'INITIATED',
		statusReasonInformation: 'Waiting for the payer',
		history: [{ status: 'INITIATED', at }],
		createdAt: at,
	};
	boundedSet(state.payments, referenceId, payment, STORE_LIMIT);
	return ok(inEnvelope(state, { requestId, redirectUrl }));
}

function status({ body, state }) {
	const referenceId = v.requireString(body, 'referenceId');
	const payment = found(state.payments, referenceId, 'Payment');
	return ok(inEnvelope(state, { status: payment.status, statusReasonInformation: payment.statusReasonInformation }));
}

module.exports = [
	{ method: 'POST', path: '/payments/initiate', handler: initiate },
	{ method: 'POST', path: '/payments/status', handler: status },
];

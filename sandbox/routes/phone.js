'use strict';

// Phone services: send an OTP by SMS or e-mail, then check the code. The answers follow the
// configured generation: g2 answers un-enveloped (referenceId, status, recipient, method, state at
// the top level; a check answers {status}), g3 wraps them in {status: true, data}.

const crypto = require('node:crypto');
const { found, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');
const { generationOf, inEnvelope } = require('../generation');

function status(code, description) {
	return { code, description, updatedOn: new Date().toISOString() };
}

function createVerification({ body, state }) {
	const method = v.requireEnum(body, 'method', ['sms', 'email']);
	let recipient;
	if (method === 'sms') {
		const phoneNumber = v.requirePattern(body, 'phoneNumber', /^[0-9]{6,20}$/, 'must be 6 to 20 digits (international format, digits only)');
		recipient = { phoneNumber };
	} else {
		const email = v.requireString(body, 'email');
		if (!v.isEmail(email)) throw v.bad('email must be a valid e-mail address');
		recipient = { email };
	}
	const securityFactor = v.optionalPattern(body, 'securityFactor', /^[0-9]{3,10}$/, 'must be 3 to 10 digits');
	const externalId = v.optionalString(body, 'externalId', { maxLength: 100 });
	v.optionalObject(body, 'messageTemplate');
	v.optionalObject(body, 'template');

	const referenceId = crypto.randomBytes(16).toString('hex');
	const otp = securityFactor || String(crypto.randomInt(0, 1000000)).padStart(6, '0');
	const request = {
		referenceId,
		method,
		recipient,
		externalId: externalId === undefined ? null : externalId,
		otp,
		otpGenerated: securityFactor === undefined,
		state: 'CREATED',
		attempts: 0,
		createdAt: new Date().toISOString(),
	};
	boundedSet(state.phone, referenceId, request, STORE_LIMIT);
	// What a real provider would deliver: tests read the code here, as the person reads their phone.
	state.phoneMessages.push({
		referenceId,
		method,
		to: method === 'sms' ? recipient.phoneNumber : recipient.email,
		text: `Your verification code is ${otp}`,
		code: otp,
		sentAt: request.createdAt,
	});
	if (state.phoneMessages.length > STORE_LIMIT) state.phoneMessages.shift();
	if (generationOf(state) === 'g2') {
		return ok({ referenceId, status: { code: 3901, description: 'Request in progress' }, recipient, method, state: 'CREATED' });
	}
	return ok(
		inEnvelope(state, {
			mobileAppToken: crypto.randomBytes(24).toString('base64url'),
			recipient,
			referenceId,
			state: 'CREATED',
			status: status(3901, 'Request in progress'),
		}),
	);
}

/** A code check's answer: g2 names only the status, g3 the request's state and referenceId too. */
function checked(state, request, code, description) {
	if (generationOf(state) === 'g2') return ok({ status: { code, description } });
	return ok(inEnvelope(state, { referenceId: request.referenceId, state: request.state, status: status(code, description) }));
}

function checkCode({ body, params, state }) {
	const request = found(state.phone, params.referenceId, 'Verification');
	const code = v.requirePattern(body, 'securityFactor', /^[0-9]{3,10}$/, 'must be 3 to 10 digits');
	request.attempts += 1;
	if (code === request.otp) {
		request.state = 'VERIFIED';
		return checked(state, request, 3900, 'Verified');
	}
	// A request verified earlier stays VERIFIED: the answer then says VERIFIED beside code 3905.
	if (request.state !== 'VERIFIED') request.state = 'ONGOING';
	return checked(state, request, 3905, 'Invalid security factor');
}

module.exports = [
	{ method: 'POST', path: '/phone-service/verification', handler: createVerification },
	{ method: 'PATCH', path: '/phone-service/verification/:referenceId', handler: checkCode },
];

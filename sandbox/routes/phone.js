'use strict';

// Phone services: send an OTP by SMS or e-mail, then check the code.

const crypto = require('node:crypto');
const { ApiError, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');

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
	return ok({
		status: true,
		data: {
			mobileAppToken: crypto.randomBytes(24).toString('base64url'),
			recipient,
			referenceId,
			state: 'CREATED',
			status: status(3901, 'Request in progress'),
		},
	});
}

function checkCode({ body, params, state }) {
	const request = state.phone.get(params.referenceId);
	if (!request) throw new ApiError(404, 'Verification not found');
	const code = v.requirePattern(body, 'securityFactor', /^[0-9]{3,10}$/, 'must be 3 to 10 digits');
	request.attempts += 1;
	if (code === request.otp) {
		request.state = 'VERIFIED';
		return ok({ status: true, data: { referenceId: request.referenceId, state: 'VERIFIED', status: status(3900, 'Verified') } });
	}
	if (request.state !== 'VERIFIED') request.state = 'ONGOING';
	return ok({
		status: true,
		data: { referenceId: request.referenceId, state: request.state, status: status(3905, 'Invalid security factor') },
	});
}

module.exports = [
	{ method: 'POST', path: '/phone-service/verification', handler: createVerification },
	{ method: 'PATCH', path: '/phone-service/verification/:referenceId', handler: checkCode },
];

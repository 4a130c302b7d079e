'use strict';

// QES onboarding: verification result, webhook configuration, session links.

const crypto = require('node:crypto');
const { ApiError, ok } = require('../http-util');
const v = require('../validation');
const { getSession, setSession, verificationBody } = require('../qes');

function getVerification({ params, state, origin }) {
	const session = getSession(state, params.sessionId);
	if (!session) throw new ApiError(404, 'Session not found');
	return ok(verificationBody(session, origin));
}

function configureWebhook({ body, state }) {
	const webhookUrl = v.requireString(body, 'webhookUrl');
	if (!v.isHttpUrl(webhookUrl)) throw v.bad('webhookUrl must be an absolute http or https URL');
	const metadata = v.optionalObject(body, 'metadata');
	if (metadata && metadata.authHeader !== undefined) {
		if (!v.isPlainObject(metadata.authHeader)) throw v.bad('metadata.authHeader must be an object');
		for (const [name, value] of Object.entries(metadata.authHeader)) {
			if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw v.bad(`metadata.authHeader has an invalid header name: ${name}`);
			if (typeof value !== 'string' || /[\r\n]/.test(value)) throw v.bad(`metadata.authHeader.${name} must be a single-line string`);
		}
	}
	const webhook = { id: crypto.randomUUID(), url: webhookUrl, metadata: metadata || {}, createdAt: new Date().toISOString() };
	state.webhook = webhook;
	return ok({ status: true, data: { id: webhook.id, url: webhook.url, createdAt: webhook.createdAt } });
}

function createSessionLink({ body, state, origin }) {
	const email = v.requireString(body, 'email');
	if (!v.isEmail(email)) throw v.bad('email must be a valid e-mail address');
	v.requirePattern(body, 'phoneNumber', /^\+[1-9][0-9]{6,14}$/, 'must be in E.164 format (e.g. +4915112345678)');
	const redirectUrl = v.requireString(body, 'redirectUrl');
	if (!v.isHttpUrl(redirectUrl)) throw v.bad('redirectUrl must be an absolute http or https URL');
	const docUrl = v.requireString(body, 'docUrl');
	if (!v.isHttpUrl(docUrl) || !docUrl.startsWith('https:')) throw v.bad('docUrl must be an absolute https URL of a public PDF');
	const members = { signForms: ['fieldId', 'actorId'], fillForm: ['fieldId', 'value'] };
	for (const [field, keys] of Object.entries(members)) {
		if (body[field] === undefined) continue;
		if (!Array.isArray(body[field])) throw v.bad(`${field} must be an array`);
		body[field].forEach((entry, i) => {
			if (!v.isPlainObject(entry)) throw v.bad(`${field}[${i}] must be an object`);
			for (const key of keys) {
				if (typeof entry[key] !== 'string') throw v.bad(`${field}[${i}].${key} must be a string`);
			}
			if (entry.fieldId.trim() === '') throw v.bad(`${field}[${i}].fieldId must not be blank`);
		});
	}
	const requestId = `qes-${crypto.randomBytes(8).toString('hex')}`;
	setSession(state, requestId, 'pending', false);
	return ok({
		status: true,
		data: {
			requestId,
			url: `${origin}/sign/${requestId}`,
			expiresAfter: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
		},
	});
}

module.exports = [
	{ method: 'GET', path: '/onboarding/getVerification/:sessionId', handler: getVerification },
	{ method: 'POST', path: '/onboarding/configureWebhook', handler: configureWebhook },
	{ method: 'POST', path: '/onboarding/createSessionLink', handler: createSessionLink },
];

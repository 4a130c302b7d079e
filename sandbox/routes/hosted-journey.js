'use strict';

// The hosted identity journey's handshake: checks the DTO, keeps the journey and answers with its
// transactionId and uiHandle (a page of this emulator that stands for the provider's UI). The
// journey is completed by a control call, which delivers the signed result (hosted-flows.js).

const crypto = require('node:crypto');
const { ApiError, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');
const { requireToken } = require('../auth');
const { generationOf } = require('../generation');

const ID_TYPES = ['passport', 'nationalId', 'driversLicense'];
const CHECKS = ['extraForensics', 'biometricMatching', 'liveness', 'photoIdentPlus'];
const ADDRESS_MEMBERS = ['streetAddress', 'locality', 'region', 'postalCode', 'country'];

function optionalStrings(object, names, prefix) {
	for (const name of names) v.optionalString(object, name, { nonBlank: true, label: `${prefix}.${name}` });
}

function checkValidationData(data) {
	optionalStrings(data, ['fullName', 'unstructuredInput'], 'validationData');
	if (data.DOB !== undefined && !v.isRealSlashDate(data.DOB)) throw v.bad('validationData.DOB must be a date as YYYY/MM/DD');
	if (data.iban !== undefined && !v.isIban(data.iban)) throw v.bad('validationData.iban must be an IBAN (upper case, no spaces) with matching check digits');
	if (data.phoneNumber !== undefined && !v.isE164(data.phoneNumber)) throw v.bad('validationData.phoneNumber must be E.164 (+ and 6 to 15 digits)');
	const address = v.optionalObject(data, 'address', 'validationData.address');
	if (address) {
		optionalStrings(address, ADDRESS_MEMBERS, 'validationData.address');
		if (address.country !== undefined && !/^[A-Z]{2,3}$/.test(address.country)) throw v.bad('validationData.address.country must be an ISO 3166-1 code (2 or 3 upper-case letters)');
	}
}

function checkCountries(list, label) {
	if (list === undefined) return;
	if (!Array.isArray(list) || list.some((c) => typeof c !== 'string' || !/^[A-Z]{2,3}$/.test(c))) throw v.bad(`${label} must be an array of ISO 3166-1 codes`);
}

function checkSteps(steps) {
	if (!Array.isArray(steps)) throw v.bad('steps must be an array');
	steps.forEach((step, i) => {
		const at = `steps[${i}]`;
		if (!v.isPlainObject(step)) throw v.bad(`${at} must be an object`);
		v.requireString(step, 'id', `${at}.id`);
		if (step.type !== 'documentVerification') throw v.bad(`${at}.type must be documentVerification`);
		v.optionalString(step, 'interface', { nonBlank: true, label: `${at}.interface` });
		v.optionalBoolean(step, 'blocking', `${at}.blocking`);
		const configuration = v.optionalObject(step, 'configuration', `${at}.configuration`) || {};
		for (const check of CHECKS) v.optionalBoolean(configuration, check, `${at}.configuration.${check}`);
		const documents = configuration.permittedDocuments;
		if (documents === undefined) return;
		if (!Array.isArray(documents)) throw v.bad(`${at}.configuration.permittedDocuments must be an array`);
		documents.forEach((document, j) => {
			const where = `${at}.configuration.permittedDocuments[${j}]`;
			if (!v.isPlainObject(document) || !ID_TYPES.includes(document.idType)) throw v.bad(`${where}.idType must be one of: ${ID_TYPES.join(', ')}`);
			v.optionalString(document, 'bloc', { nonBlank: true, label: `${where}.bloc` });
			checkCountries(document.countries, `${where}.countries`);
			checkCountries(document.excludedCountries, `${where}.excludedCountries`);
		});
	});
}

/** "20/03/2025, 12:11:25", as the older answer's init_timestamp shows it. */
function initTimestamp(date) {
	const two = (n) => String(n).padStart(2, '0');
	return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
}

function handshake({ req, body, state, tokens, origin }) {
	const journey = v.optionalObject(body, 'journey');
	if (!journey) throw v.bad('journey is required');
	const customerId = v.requireString(journey, 'customerId', 'journey.customerId');
	// The account is the token's; a journey for another customer id is refused.
	if (customerId !== requireToken(tokens, req).customerId) throw new ApiError(403, 'journey.customerId does not belong to this access token');
	const processName = v.requireString(journey, 'processName', 'journey.processName');
	const validationData = v.optionalObject(body, 'validationData');
	if (validationData) checkValidationData(validationData);
	const passThroughData = v.optionalObject(body, 'passThroughData');
	if (body.steps !== undefined) checkSteps(body.steps);

	const transactionId = crypto.randomUUID();
	const uiHandle = `${origin}/journey/${transactionId}`;
	const createdAt = new Date();
	const record = {
		transactionId,
		uiHandle,
		processName,
		validationData: validationData || null,
		passThroughData: passThroughData || null,
		steps: body.steps || null,
		status: 'created',
		success: null,
		opened: 0,
		createdAt: createdAt.toISOString(),
	};
	boundedSet(state.hostedJourneys, transactionId, record, STORE_LIMIT);
	if (generationOf(state) === 'g3') return ok({ status: true, data: { transactionId, uiHandle } });
	return ok({ transaction_id: transactionId, ui_handle: uiHandle, init_timestamp: initTimestamp(createdAt) });
}

module.exports = [{ method: 'POST', path: '/sdk/universal/handshake', handler: handshake }];

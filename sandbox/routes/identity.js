'use strict';

// Identity verification: name, date of birth and address against data sources. The last name picks
// the total score (sandbox/data/identity.js).

const crypto = require('node:crypto');
const { ApiError, ok } = require('../http-util');
const v = require('../validation');
const { inEnvelope } = require('../generation');
const { IDENTITY_RESULTS, DEFAULT_IDENTITY_RESULT, IDENTITY_ERROR_LAST_NAME, IDENTITY_SOURCES } = require('../data');

function verifyIdentity({ body, state }) {
	const raw = v.optionalBoolean(body, 'raw');
	const identity = v.requireObject(body, 'identity');
	const firstName = v.requireString(identity, 'firstName', 'identity.firstName');
	const lastName = v.requireString(identity, 'lastName', 'identity.lastName');
	const birthDate = v.requireString(identity, 'birthDate', 'identity.birthDate');
	if (!v.isRealSlashDate(birthDate)) throw v.bad('identity.birthDate must be a valid date in the format YYYY/MM/DD');
	v.optionalString(identity, 'nationalId', { nonBlank: true, label: 'identity.nationalId' });
	const address = v.requireObject(body, 'address');
	for (const f of ['street', 'postalCode', 'city']) v.requireString(address, f, `address.${f}`);
	const countryCode = v.requireString(address, 'countryCode', 'address.countryCode');
	if (!/^[A-Z]{2,3}$/.test(countryCode)) throw v.bad('address.countryCode must be an ISO country code in upper case');
	for (const f of ['houseNumber', 'building', 'district', 'province']) v.optionalString(address, f, { nonBlank: true, label: `address.${f}` });
	const phone = v.optionalObject(body, 'phone');
	if (phone !== undefined) v.optionalPattern(phone, 'phoneNumber', /^\+[1-9][0-9]{5,14}$/, 'must be + and 6 to 15 digits');
	if (lastName.trim().toLowerCase() === IDENTITY_ERROR_LAST_NAME) throw new ApiError(500, 'Internal server error');

	const result = IDENTITY_RESULTS[lastName.trim().toLowerCase()] ?? DEFAULT_IDENTITY_RESULT;
	const resultDetails = IDENTITY_SOURCES.map((datasource) => ({
		datasource,
		country: countryCode,
		matches: ['name', 'birthDate', 'address'].map((record) => ({ record, match: result[record] })),
		...(raw ? { rawResponse: { sourceReference: crypto.createHash('sha256').update(`${datasource}/${firstName} ${lastName}`).digest('hex').slice(0, 16), queriedAt: new Date().toISOString() } } : {}),
	}));
	return ok(inEnvelope(state, { globalResult: { totalScore: result.totalScore }, resultDetails }));
}

module.exports = [{ method: 'POST', path: '/identity/verify', handler: verifyIdentity }];

'use strict';

// Address verification: does the person live at the address? The last name picks the verdict
// (sandbox/data/address.js); Austrian addresses need a compliance reason.

const { ApiError, ok } = require('../http-util');
const v = require('../validation');
const { inEnvelope } = require('../generation');
const { ADDRESS_VERDICTS, DEFAULT_ADDRESS_VERDICT, ADDRESS_ERROR_LAST_NAME, COMPLIANCE_REASONS, correctStreet } = require('../data');

/** yyyy/mm/dd, or the yyyy-mm-dd one generation of the docs shows. */
function optionalDob(identity) {
	if (typeof identity.dob === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(identity.dob)) return identity.dob.replace(/-/g, '/');
	return v.optionalDob(identity, 'dob');
}

function verifyAddress({ body, state }) {
	const country = v.requirePattern(body, 'country', /^[A-Z]{2,3}$/, 'must be an ISO 3166-1 alpha-2 or alpha-3 code in upper case');
	const address = v.requireObject(body, 'address');
	const [street, number, zip, city] = ['street', 'number', 'zip', 'city'].map((f) => v.requireString(address, f, `address.${f}`));
	const province = v.optionalString(address, 'province', { label: 'address.province' }) ?? '';
	const identity = v.requireObject(body, 'identity');
	const firstname = v.requireString(identity, 'firstname', 'identity.firstname');
	const lastname = v.requireString(identity, 'lastname', 'identity.lastname');
	const dob = optionalDob(identity);
	if (country === 'AT' || country === 'AUT') {
		const compliance = body.compliance;
		if (!v.isPlainObject(compliance) || compliance.acceptedTerms !== true || !COMPLIANCE_REASONS.includes(compliance.reason)) {
			throw v.bad(`compliance {acceptedTerms: true, reason: ${COMPLIANCE_REASONS.join('|')}} is required for Austrian addresses`);
		}
	}
	if (lastname.trim().toLowerCase() === ADDRESS_ERROR_LAST_NAME) throw new ApiError(500, 'Internal server error');

	const verdict = ADDRESS_VERDICTS[lastname.trim().toLowerCase()] ?? DEFAULT_ADDRESS_VERDICT;
	const corrected = correctStreet(street);
	const line = (s) => [`${s} ${number}`, `${zip} ${city}`, province, country].filter(Boolean).join(', ');
	const found = verdict.matchQuality !== 'NO_MATCH';
	return ok(
		inEnvelope(state, {
			inputAddress: line(street),
			correctedAddress: line(corrected),
			finalAddress: line(found ? corrected : street),
			addressStatus: found && corrected !== street ? 'corrected' : 'unchanged',
			addressComponents: found ? { street: corrected, number, zip, city, province, country } : {},
			matchQuality: verdict.matchQuality,
			score: verdict.score,
			globalResult: { overall: verdict.overall, totalScore: verdict.score },
			identity: { fullName: `${firstname} ${lastname}`, dob: dob ?? '' },
			extendedMessage: verdict.extendedMessage,
		}),
	);
}

module.exports = [{ method: 'POST', path: '/address/verify', handler: verifyAddress }];

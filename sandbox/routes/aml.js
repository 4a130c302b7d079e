'use strict';

// AML: individual check, ongoing-monitoring register / remove search profile.

const { ApiError, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { findAmlRecords, AML_ERROR_NAMES, normaliseName } = require('../data');
const { STORE_LIMIT } = require('../constants');

function checkIndividual({ body }) {
	const name = v.requireString(body, 'name');
	const dob = v.optionalDob(body, 'dob');
	const special = AML_ERROR_NAMES[normaliseName(name)];
	if (special) throw new ApiError(special.status, special.message);
	const foundRecords = findAmlRecords(name, dob);
	return ok({ timestamp: new Date().toISOString(), totalHits: foundRecords.length, foundRecords });
}

const GENDERS = ['MALE', 'FEMALE', 'UNKNOWN'];

function registerIndividual({ body, state }) {
	const profileId = v.requireString(body, 'profileId');
	const names = body.names;
	if (names === undefined || names === null) throw v.bad('names is required');
	if (Array.isArray(names)) {
		if (names.length === 0) throw v.bad('names must not be empty');
		if (!names.every((n) => typeof n === 'string' && n.trim() !== '')) throw v.bad('names must contain non-blank strings');
	} else if (typeof names !== 'string' || names.trim() === '') {
		throw v.bad('names must be a non-blank string or a non-empty array of strings');
	}
	const gender = v.optionalString(body, 'gender');
	if (gender !== undefined && !GENDERS.includes(gender.toUpperCase())) {
		throw v.bad(`gender must be one of: ${GENDERS.join(', ')}`);
	}
	const dob = v.optionalDob(body, 'dob');
	const searchAll = v.optionalBoolean(body, 'searchAll');
	const fuzzySearch = v.optionalBoolean(body, 'fuzzySearch');
	const registeredAt = new Date().toISOString();
	const profile = {
		profileId,
		names: Array.isArray(names) ? [...names] : [names],
		gender: gender === undefined ? null : gender.toUpperCase(),
		dob: dob === undefined ? null : dob,
		searchAll: searchAll === undefined ? false : searchAll,
		fuzzySearch: fuzzySearch === undefined ? false : fuzzySearch,
		registeredAt,
	};
	boundedSet(state.profiles, profileId, profile, STORE_LIMIT);
	return ok({ status: true, data: { profileId, registeredAt } });
}

function removeSearchProfile({ body, state }) {
	const profileId = v.requireString(body, 'profileId');
	state.profiles.delete(profileId);
	return ok({ status: true, data: { profileId, removed: true } });
}

module.exports = [
	{ method: 'POST', path: '/aml/checkIndividual', handler: checkIndividual },
	{ method: 'POST', path: '/aml/ongoingMonitoring/registerIndividual', handler: registerIndividual },
	{ method: 'POST', path: '/aml/ongoingMonitoring/removeSearchProfile', handler: removeSearchProfile },
];

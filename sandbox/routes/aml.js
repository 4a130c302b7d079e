'use strict';

// AML: individual check, ongoing-monitoring register / remove search profile. By generation:
// g2 answers the check with the list {timestamp, totalHits, foundRecords} whatever is sent, and the
// monitoring calls with 200 and no body; g3 wraps every answer in {status: true, data} and, when
// search constraints are sent ({name, dateOfBirth?, countries, datasets?, threshold?, matchingMode?}),
// answers with the best-matching profile instead of the list.

const { ApiError, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { bestAmlMatch, findAmlRecords, AML_ERROR_NAMES, normaliseName } = require('../data');
const { STORE_LIMIT } = require('../constants');
const { generationOf, inEnvelope } = require('../generation');

/** The members that make a check the newer request form (search constraints). */
const CONSTRAINTS = ['countries', 'dateOfBirth', 'datasets', 'threshold', 'matchingMode'];
const MATCHING_MODES = ['exact', 'fuzzy'];

/** 200 with no body, as the older generation documents the monitoring calls. */
const noBody = () => ({ status: 200, raw: '', headers: {} });

/** A comma-separated list such as "NL,GB": its non-blank parts. */
function commaList(body, field, pattern, description) {
	const text = v.optionalString(body, field, { nonBlank: true });
	if (text === undefined) return undefined;
	const parts = text.split(',').map((p) => p.trim());
	if (parts.some((p) => p === '' || (pattern && !pattern.test(p)))) throw v.bad(`${field} ${description}`);
	return parts;
}

/** dateOfBirth: YYYY-MM-DD or YYYY, after 1900, not in the future. */
function optionalBirthDate(body) {
	const value = v.optionalString(body, 'dateOfBirth');
	if (value === undefined) return undefined;
	const match = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/.exec(value);
	const date = match && (match[2] ? new Date(`${value}T00:00:00Z`) : new Date(Date.UTC(Number(match[1]), 0, 1)));
	const real = date && !Number.isNaN(date.getTime()) && (!match[2] || date.toISOString().startsWith(value));
	if (!real || Number(match[1]) <= 1900 || date.getTime() > Date.now()) {
		throw v.bad('dateOfBirth must be YYYY-MM-DD or YYYY, after 1900 and not in the future');
	}
	return value;
}

/** The g3 screening with search constraints: the best-matching profile, or matchFound false. */
function screenWithConstraints(body, name, state) {
	if (body.dob !== undefined) throw v.bad('dob is not part of the search-constraints form: send dateOfBirth');
	const countries = commaList(body, 'countries', /^[A-Z]{2}$/, 'must be comma-separated ISO 3166-1 alpha-2 codes such as NL,GB');
	if (countries === undefined) throw v.bad('countries is required with search constraints');
	const datasets = commaList(body, 'datasets', undefined, 'must be a comma-separated list of dataset names');
	const threshold = body.threshold;
	if (threshold !== undefined && !(typeof threshold === 'number' && threshold >= 0 && threshold <= 1)) {
		throw v.bad('threshold must be a number from 0 to 1');
	}
	const matchingMode = body.matchingMode;
	if (matchingMode !== undefined && !MATCHING_MODES.includes(matchingMode)) {
		throw v.bad(`matchingMode must be one of: ${MATCHING_MODES.join(', ')}`);
	}
	const dateOfBirth = optionalBirthDate(body);
	const best = bestAmlMatch({ name, dateOfBirth, countries, datasets, threshold, matchingMode }, state.amlRecords);
	const searched = { name, countries: countries.join(','), searchedAt: new Date().toISOString() };
	if (!best) return { matchFound: false, search: searched };
	return { matchFound: true, matchScore: best.score, profile: { ...best.record }, search: searched };
}

function checkIndividual({ body, state }) {
	const name = v.requireString(body, 'name');
	const special = AML_ERROR_NAMES[normaliseName(name)];
	if (special) throw new ApiError(special.status, special.message);
	if (generationOf(state) === 'g3' && CONSTRAINTS.some((key) => body[key] !== undefined)) {
		return ok(inEnvelope(state, screenWithConstraints(body, name, state)));
	}
	const dob = v.optionalDob(body, 'dob');
	const foundRecords = findAmlRecords(name, dob, state.amlRecords);
	return ok(inEnvelope(state, { timestamp: new Date().toISOString(), totalHits: foundRecords.length, foundRecords }));
}

const GENDERS = ['male', 'female', 'unknown'];

/** A flag the monitoring calls take as the string "true" or "false". */
function optionalFlag(body, field) {
	const value = body[field];
	if (value === undefined) return undefined;
	if (value !== 'true' && value !== 'false') throw v.bad(`${field} must be the string "true" or "false"`);
	return value === 'true';
}

function registerIndividual({ body, state }) {
	const profileId = v.requireString(body, 'profileId');
	const searchAll = optionalFlag(body, 'searchAll');
	if (searchAll !== undefined && body.names !== undefined) throw v.bad('searchAll cannot be combined with names');
	const names = searchAll === undefined ? v.requireString(body, 'names') : undefined;
	const gender = v.optionalString(body, 'gender');
	if (gender !== undefined && !GENDERS.includes(gender)) throw v.bad(`gender must be one of: ${GENDERS.join(', ')}`);
	const dob = v.optionalDob(body, 'dob');
	const fuzzySearch = optionalFlag(body, 'fuzzySearch');
	const registeredAt = new Date().toISOString();
	const profile = {
		profileId,
		names: names === undefined ? null : names,
		gender: gender === undefined ? null : gender,
		dob: dob === undefined ? null : dob,
		searchAll: searchAll === undefined ? null : searchAll,
		fuzzySearch: fuzzySearch === undefined ? null : fuzzySearch,
		registeredAt,
	};
	boundedSet(state.profiles, profileId, profile, STORE_LIMIT);
	return generationOf(state) === 'g2' ? noBody() : ok(inEnvelope(state, { profileId, registeredAt }));
}

function removeSearchProfile({ body, state }) {
	const profileId = v.requireString(body, 'profileId');
	state.profiles.delete(profileId);
	return generationOf(state) === 'g2' ? noBody() : ok(inEnvelope(state, { profileId, removed: true }));
}

module.exports = [
	{ method: 'POST', path: '/aml/checkIndividual', handler: checkIndividual },
	{ method: 'POST', path: '/aml/ongoingMonitoring/registerIndividual', handler: registerIndividual },
	{ method: 'POST', path: '/aml/ongoingMonitoring/removeSearchProfile', handler: removeSearchProfile },
];

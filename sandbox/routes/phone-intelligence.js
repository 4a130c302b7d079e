'use strict';

// Phone intelligence: live status, phone ID with add-ons, risk score and full intelligence. The
// number's last four digits pick the scenario (sandbox/data/phone-intelligence.js). Every answer
// carries the lookup's status object; errors carry it too, without a `message`.

const crypto = require('node:crypto');
const net = require('node:net');
const { ApiError, ok } = require('../http-util');
const v = require('../validation');
const { generationOf, inEnvelope } = require('../generation');
const { phoneScenario, phoneCountry } = require('../data');

const E164 = /^\+[1-9][0-9]{5,14}$/;
const LIFECYCLE_EVENTS = ['create', 'sign-in', 'transact', 'update', 'delete'];
const ADDONS = ['ageVerify', 'breachedData', 'callForwardDetection', 'contact', 'contactMatch', 'contactPlus', 'numberDeactivation', 'portingHistory', 'portingStatus', 'simSwap', 'subscriberStatus'];
const NEED_CONSENT = ['ageVerify', 'contact'];
const CONTACT_MATCH_FIELDS = ['firstName', 'lastName', 'address', 'city', 'postalCode', 'state', 'country'];

function requireInteger(object, field, label, min, max) {
	const value = object[field];
	if (!Number.isInteger(value) || value < min || value > max) throw v.bad(`${label} must be an integer from ${min} to ${max}`);
	return value;
}

const withTime = (status) => ({ ...status, updatedOn: new Date().toISOString() });

/** The lookup's error answer: its status object, enveloped as the generation does (g3: status false). */
function lookupError({ http, code, description }, state) {
	const payload = { status: withTime({ code, description }), errors: [{ code, description }] };
	throw new ApiError(http, description, { body: generationOf(state) === 'g3' ? { status: false, data: payload } : payload });
}

/** The blocks every lookup answer shares, for the number's digits and scenario. */
function commonBlocks(digits, scenario) {
	const country = phoneCountry(digits);
	const countryCode = country ? country.prefix : digits.slice(0, 2);
	const national = digits.slice(countryCode.length);
	const cleansing = {
		countryCode,
		phoneNumber: national,
		cleansedCode: 100,
		minLength: country ? country.length[0] : 6,
		maxLength: country ? country.length[1] : 15,
	};
	return {
		referenceId: crypto.randomBytes(16).toString('hex'),
		status: withTime(scenario.status),
		phoneType: scenario.phoneType,
		blocklisting: scenario.blocklisting,
		numbering: { original: { completePhoneNumber: digits, countryCode, phoneNumber: national }, cleansing: { call: cleansing, sms: cleansing } },
		location: country
			? { city: country.city, state: country.state, zip: country.zip, metroCode: null, county: null, country: country.country, coordinates: country.coordinates, timeZone: country.timeZone }
			: { city: null, state: null, zip: null, metroCode: null, county: null, country: { name: null, iso2: null, iso3: null }, coordinates: null, timeZone: null },
		carrier: { name: country ? country.carrier : 'Unknown carrier' },
	};
}

/** Validates the number, applies an error scenario, and gives the number's digits and scenario. */
function lookedUp(body, state, pattern, rule) {
	const phoneNumber = v.requirePattern(body, 'phoneNumber', pattern, rule);
	const digits = phoneNumber.replace('+', '');
	const scenario = phoneScenario(digits);
	if (scenario.error) lookupError(scenario.error, state);
	return { digits, scenario };
}

function optionalExternalId(body, pattern) {
	const externalId = pattern ? v.optionalPattern(body, 'externalId', pattern, 'must be 1 to 80 letters, digits, dots, underscores or hyphens') : v.optionalString(body, 'externalId');
	return externalId === undefined ? {} : { externalId };
}

function optionalLifecycleEvent(body) {
	if (body.accountLifecycleEvent !== undefined) v.requireEnum(body, 'accountLifecycleEvent', LIFECYCLE_EVENTS);
}

function phoneStatus({ body, state }) {
	const { digits, scenario } = lookedUp(body, state, E164, 'must be + and 6 to 15 digits (E.164)');
	const answer = { ...commonBlocks(digits, scenario), subResource: 'live', errors: [] };
	if (scenario.live) answer.live = scenario.live;
	return ok(inEnvelope(state, answer));
}

/** The add-ons asked for, checked as the provider's client builds them. */
function requestedAddons(body) {
	const addons = v.optionalObject(body, 'addons') ?? {};
	for (const [name, settings] of Object.entries(addons)) {
		if (!ADDONS.includes(name)) throw v.bad(`addons.${name} is not an add-on; known: ${ADDONS.join(', ')}`);
		if (!v.isPlainObject(settings)) throw v.bad(`addons.${name} must be an object`);
	}
	if (addons.ageVerify) requireInteger(addons.ageVerify, 'ageThreshold', 'addons.ageVerify.ageThreshold', 1, 120);
	if (addons.portingHistory) requireInteger(addons.portingHistory, 'pastXDays', 'addons.portingHistory.pastXDays', 1, 3650);
	if (addons.contact && addons.contact.email !== undefined && !v.isEmail(addons.contact.email)) throw v.bad('addons.contact.email must be a valid e-mail address');
	if (addons.contactPlus) v.requireString(addons.contactPlus, 'billingPostalCode', 'addons.contactPlus.billingPostalCode');
	if (addons.contactMatch) {
		for (const f of CONTACT_MATCH_FIELDS) v.requireString(addons.contactMatch, f, `addons.contactMatch.${f}`);
		if (!/^[A-Za-z]{2,3}$/.test(addons.contactMatch.country)) throw v.bad('addons.contactMatch.country must be 2 or 3 letters');
		v.requireEnum(addons.contactMatch, 'inputUsed', ['phoneNumber', 'phoneNumber and email']);
	}
	const needing = NEED_CONSENT.filter((name) => addons[name]);
	if (needing.length) {
		const consent = body.consent;
		if (!v.isPlainObject(consent) || !Number.isInteger(consent.method) || typeof consent.timestamp !== 'string' || Number.isNaN(Date.parse(consent.timestamp))) {
			throw v.bad(`consent {method: integer, timestamp: date-time} is required for the add-ons ${needing.join(', ')}`);
		}
	}
	return addons;
}

/** What each add-on answers in the sandbox; every result carries the add-on's status. */
function addonResult(name, settings, scenario, digits) {
	const status = scenario.addonStatus;
	if (status.code !== 2800) return { status };
	const results = {
		ageVerify: { ageVerified: true, ageThreshold: settings.ageThreshold },
		breachedData: { breached: false, breachCount: 0 },
		callForwardDetection: { callForwarding: false },
		contact: { name: 'Erika Mustermann', address: 'Hauptstraße 5, 1010 Wien', ...(settings.email ? { email: settings.email } : {}) },
		contactMatch: { firstNameMatch: 100, lastNameMatch: 100, addressMatch: 90, cityMatch: 100, postalCodeMatch: 100, stateMatch: 100, countryMatch: 100 },
		contactPlus: { billingPostalCodeMatch: true },
		numberDeactivation: { carrierName: phoneCountry(digits)?.carrier ?? 'Unknown carrier', lastDeactivated: null, trackingSince: '2019-01-01', recycledSinceLastVerification: 'notRecycled' },
		portingHistory: { pastXDays: settings.pastXDays, ported: false, portingEvents: [] },
		portingStatus: { ported: false },
		simSwap: { swapped: false, lastSwapDate: null },
		subscriberStatus: { accountType: 'POSTPAID', accountStatus: 'ACTIVE' },
	};
	return { status, ...results[name] };
}

function phoneId({ body, state }) {
	const { digits, scenario } = lookedUp(body, state, /^[0-9]{6,20}$/, 'must be 6 to 20 digits with the country code, no spaces or symbols');
	optionalLifecycleEvent(body);
	const ip = v.optionalString(body, 'originatingIp');
	if (ip !== undefined && !net.isIP(ip)) throw v.bad('originatingIp must be an IPv4 or IPv6 address');
	const addons = requestedAddons(body);
	const answer = { ...commonBlocks(digits, scenario), ...optionalExternalId(body) };
	if (Object.keys(addons).length) {
		answer.addons = Object.fromEntries(Object.entries(addons).map(([name, settings]) => [name, addonResult(name, settings, scenario, digits)]));
	}
	return ok(inEnvelope(state, answer));
}

function riskBlocks(scenario) {
	return { riskInsights: { status: 800, ...scenario.insights }, risk: scenario.risk };
}

function phoneRiskScore({ body, state }) {
	const { digits, scenario } = lookedUp(body, state, E164, 'must be + and 6 to 15 digits (E.164)');
	optionalLifecycleEvent(body);
	const ip = v.optionalString(body, 'originatingIp');
	if (ip !== undefined && !net.isIPv4(ip)) throw v.bad('originatingIp must be an IPv4 address');
	if (body.emailAddress !== undefined && !v.isEmail(body.emailAddress)) throw v.bad('emailAddress must be a valid e-mail address');
	for (const f of ['deviceId', 'accountId']) v.optionalString(body, f);
	return ok(inEnvelope(state, { ...commonBlocks(digits, scenario), ...optionalExternalId(body), ...riskBlocks(scenario) }));
}

function fullPhoneIntelligence({ body, state }) {
	const { digits, scenario } = lookedUp(body, state, /^[0-9]{8,20}$/, 'must be 8 to 20 digits with the country code');
	const externalId = optionalExternalId(body, /^[A-Za-z0-9._-]{1,80}$/);
	return ok(inEnvelope(state, { ...commonBlocks(digits, scenario), ...externalId, ...riskBlocks(scenario) }));
}

module.exports = [
	{ method: 'POST', path: '/phone-service/phoneStatus', handler: phoneStatus },
	{ method: 'POST', path: '/phone-service/phoneid', handler: phoneId },
	{ method: 'POST', path: '/phone-service/phoneRiskScore', handler: phoneRiskScore },
	{ method: 'POST', path: '/phone-service/fullPhoneIntelligence', handler: fullPhoneIntelligence },
];

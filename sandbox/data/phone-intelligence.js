'use strict';

// Phone intelligence fixtures. The number's last four digits pick the scenario, so that every
// outcome can be reached with any country code; the country code picks carrier and location.

const ALLOW = Object.freeze({
	risk: { score: 120, level: 'low', recommendation: 'ALLOW' },
	insights: { category: [10010], a2P: [20101], p2P: [30201], numberType: [40001], ip: [], email: [] },
	live: { subscriberStatus: 'ACTIVE', deviceStatus: 'REACHABLE', roaming: 'UNAVAILABLE', roamingCountry: null, roamingCountryIso2: null },
	phoneType: { code: '2', description: 'MOBILE' },
	blocklisting: { blocked: false, blockCode: 0, blockDescription: 'Not blocked' },
});

/** Last four digits -> what differs from ALLOW. */
const PHONE_SCENARIOS = Object.freeze({
	// Risky but not refused: a VOIP number abroad.
	'0001': {
		risk: { score: 520, level: 'medium', recommendation: 'FLAG' },
		insights: { ...ALLOW.insights, category: [10020], numberType: [40002] },
		live: { subscriberStatus: 'ACTIVE', deviceStatus: 'REACHABLE', roaming: 'ROAMING', roamingCountry: 'Germany', roamingCountryIso2: 'DE' },
		phoneType: { code: '5', description: 'VOIP' },
	},
	// Refused: blocklisted, deactivated, a high-risk range.
	'0002': {
		risk: { score: 870, level: 'very-high', recommendation: 'BLOCK' },
		insights: { ...ALLOW.insights, category: [10030], numberType: [40013, 40014] },
		live: { subscriberStatus: 'DEACTIVATED', deviceStatus: 'UNREACHABLE', roaming: 'UNAVAILABLE', roamingCountry: null, roamingCountryIso2: null },
		blocklisting: { blocked: true, blockCode: 3, blockDescription: 'Number reported for fraud' },
	},
	// The risk block carries only a score (no level, no recommendation).
	'0003': { risk: { score: 480 } },
	// The provider completed the lookup only partly: status 301, no live data.
	'0301': { status: { code: 301, description: 'Transaction partially completed' }, live: null },
	// Errors: HTTP 404 (number unknown) and HTTP 500, each with the lookup's status object.
	'0404': { error: { http: 404, code: 404, description: 'Phone number not found' } },
	'0500': { error: { http: 500, code: 500, description: 'Internal error' } },
	// Phone ID add-ons: no data for this number, or not enabled for the account.
	2805: { addonStatus: { code: 2805, description: 'No data available for this number' } },
	2806: { addonStatus: { code: 2806, description: 'Add-on not enabled for this account' } },
});

const COMPLETED = Object.freeze({ code: 300, description: 'Transaction successfully completed' });
const ADDON_COMPLETED = Object.freeze({ code: 2800, description: 'Request successfully completed' });

/** By country calling code (longest first): carrier, location, time zone and the national number length. */
const PHONE_COUNTRIES = Object.freeze([
	{ prefix: '43', carrier: 'A1 Telekom Austria', country: { name: 'Austria', iso2: 'AT', iso3: 'AUT' }, city: 'Wien', state: 'Wien', zip: '1010', coordinates: { latitude: 48.2082, longitude: 16.3738 }, timeZone: { name: 'Europe/Vienna', utcOffsetMin: '+1', utcOffsetMax: '+2' }, length: [10, 13] },
	{ prefix: '49', carrier: 'Telekom Deutschland', country: { name: 'Germany', iso2: 'DE', iso3: 'DEU' }, city: 'Berlin', state: 'Berlin', zip: '10115', coordinates: { latitude: 52.52, longitude: 13.405 }, timeZone: { name: 'Europe/Berlin', utcOffsetMin: '+1', utcOffsetMax: '+2' }, length: [10, 11] },
	{ prefix: '44', carrier: 'Vodafone UK', country: { name: 'United Kingdom', iso2: 'GB', iso3: 'GBR' }, city: 'London', state: 'England', zip: 'EC1A', coordinates: { latitude: 51.5072, longitude: -0.1276 }, timeZone: { name: 'Europe/London', utcOffsetMin: '0', utcOffsetMax: '+1' }, length: [10, 10] },
	{ prefix: '1', carrier: 'Verizon Wireless', country: { name: 'United States', iso2: 'US', iso3: 'USA' }, city: 'New York', state: 'NY', zip: '10001', coordinates: { latitude: 40.7128, longitude: -74.006 }, timeZone: { name: 'America/New_York', utcOffsetMin: '-5', utcOffsetMax: '-4' }, length: [10, 10] },
]);

/** The scenario of a number: ALLOW with the differences its last four digits select. */
function phoneScenario(digits) {
	return { ...ALLOW, status: COMPLETED, addonStatus: ADDON_COMPLETED, ...(PHONE_SCENARIOS[digits.slice(-4)] ?? {}) };
}

function phoneCountry(digits) {
	return PHONE_COUNTRIES.find((c) => digits.startsWith(c.prefix)) ?? null;
}

module.exports = { PHONE_SCENARIOS, phoneScenario, phoneCountry };

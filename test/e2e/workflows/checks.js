'use strict';
// The address, identity and phone-intelligence operations as cases of the operation suite
// (format: see ./operations.js). Each case feeds several people or numbers through one node, so one
// n8n run shows the exact request bodies and every derived outcome the emulator's fixtures select.
// Every case runs against both API generations: the same requests and outcomes, the answer itself
// un-enveloped (g2) or in `data` (g3).

const assert = require('node:assert/strict');

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A Set node that outputs `list` (JSON) as one array field, then Split Out: one item per entry. */
function itemsOf(name, list) {
	return [
		{
			name: `${name} List`,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				assignments: { assignments: [{ id: 'list', name: 'list', value: `={{ ${JSON.stringify(list)} }}`, type: 'array' }] },
				includeOtherFields: false,
				options: {},
			},
		},
		{
			name,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'list', include: 'noOtherFields', options: {} },
		},
	];
}

/** The requests of a route whose body `match` selects, in arrival order. */
const requestsOf = async (sandbox, route, match) => (await sandbox.requests(route)).map((r) => r.body).filter(match);


const CASES = [
	{
		key: 'addressVerify',
		title: 'Address: verify three people, one in Austria with its compliance reason',
		generations: true,
		steps: [
			...itemsOf('People', [
				{ country: 'at', street: 'haupt str.', number: '5', zip: '1010', city: 'Wien', lastname: 'Mustermann', dob: '12-08-1964', reason: 'onboarding' },
				{ country: 'DE', street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', lastname: 'Partial', dob: '', reason: '' },
				{ country: 'NL', street: 'Damrak', number: '1', zip: '1012 LG', city: 'Amsterdam', lastname: 'Nobody', dob: '', reason: 'regulatory' },
			]),
			{
				name: 'Verify Address',
				node: 'verificationAddress',
				operation: 'verify',
				parameters: {
					country: '={{ $json.country }}',
					street: '={{ $json.street }}',
					number: '={{ $json.number }}',
					zip: '={{ $json.zip }}',
					city: '={{ $json.city }}',
					firstname: 'Erika',
					lastname: '={{ $json.lastname }}',
					additionalFields: { dob: '={{ $json.dob }}', reason: '={{ $json.reason }}' },
				},
			},
		],
		async check({ out, sandbox, answer }) {
			const bodies = await requestsOf(sandbox, 'POST /address/verify', (b) => b.identity.firstname === 'Erika');
			assert.deepEqual(bodies, [
				{
					country: 'AT',
					address: { street: 'haupt str.', number: '5', zip: '1010', city: 'Wien' },
					identity: { firstname: 'Erika', lastname: 'Mustermann', dob: '1964/08/12' },
					compliance: { acceptedTerms: true, reason: 'onboarding' },
				},
				{ country: 'DE', address: { street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln' }, identity: { firstname: 'Erika', lastname: 'Partial' } },
				{ country: 'NL', address: { street: 'Damrak', number: '1', zip: '1012 LG', city: 'Amsterdam' }, identity: { firstname: 'Erika', lastname: 'Nobody' } },
			]);
			const results = out('Verify Address');
			assert.deepEqual(
				results.map((r) => r.addressVerification),
				[
					{ outcome: 'verified', overall: 'OK', matchQuality: 'EXACT', score: 100 },
					{ outcome: 'review', overall: 'REVIEW', matchQuality: 'PARTIAL_MATCH', score: 62 },
					{ outcome: 'notVerified', overall: 'NOK', matchQuality: 'NO_MATCH', score: 0 },
				],
			);
			assert.equal(answer(results[0]).finalAddress, 'Haupt Straße 5, 1010 Wien, AT', 'the whole answer is kept beside the outcome');
		},
	},
	{
		key: 'addressRefused',
		title: 'Address: with Continue On Fail, an AT person without a compliance reason is an error item, refused before sending; the others are sent, in order',
		steps: [
			...itemsOf('Applicants', [
				{ country: 'DE', lastname: 'Mustermann', reason: '' },
				{ country: 'AT', lastname: 'Mustermann', reason: '' },
				{ country: 'NL', lastname: 'Nobody', reason: '' },
			]),
			{
				name: 'Verify Applicant Address',
				node: 'verificationAddress',
				operation: 'verify',
				settings: { onError: 'continueRegularOutput' },
				parameters: {
					country: '={{ $json.country }}',
					street: 'Damrak',
					number: '1',
					zip: '1012',
					city: 'Amsterdam',
					firstname: 'Refused',
					lastname: '={{ $json.lastname }}',
					additionalFields: { reason: '={{ $json.reason }}' },
				},
			},
		],
		async check({ out, items, sandbox }) {
			const bodies = await requestsOf(sandbox, 'POST /address/verify', (b) => b.identity.firstname === 'Refused');
			assert.deepEqual(
				bodies.map((b) => b.country),
				['DE', 'NL'],
			);
			assert.deepEqual(
				items('Verify Applicant Address').map((i) => i.pairedItem),
				[{ item: 0 }, { item: 1 }, { item: 2 }],
			);
			const [de, at, nl] = out('Verify Applicant Address');
			assert.match(at.error, /^Compliance Reason \(reason\) is required when the country is AT.* \(item 2\)$/);
			assert.deepEqual([de.addressVerification.outcome, nl.addressVerification.outcome], ['verified', 'notVerified']);
		},
	},
	{
		key: 'identityVerify',
		title: 'Identity: verify three people, one with every optional field',
		generations: true,
		steps: [
			...itemsOf('People', [
				{ lastName: 'Mustermann', houseNumber: '17', nationalId: 'T22000129', phoneNumber: '+49 151 1234 5678', raw: true },
				{ lastName: 'Partial', houseNumber: '', nationalId: '', phoneNumber: '', raw: false },
				{ lastName: 'Nomatch', houseNumber: '', nationalId: '', phoneNumber: '', raw: false },
			]),
			{
				name: 'Verify Identity',
				node: 'verificationIdentity',
				operation: 'verify',
				parameters: {
					firstName: 'Erika',
					lastName: '={{ $json.lastName }}',
					birthDate: '1964-08-12',
					street: 'Heidestraße',
					postalCode: '51147',
					city: 'Köln',
					countryCode: 'de',
					additionalFields: {
						houseNumber: '={{ $json.houseNumber }}',
						nationalId: '={{ $json.nationalId }}',
						phoneNumber: '={{ $json.phoneNumber }}',
						raw: '={{ $json.raw }}',
					},
				},
			},
		],
		async check({ out, sandbox }) {
			const address = { street: 'Heidestraße', postalCode: '51147', city: 'Köln', countryCode: 'DE' };
			const identity = (lastName) => ({ firstName: 'Erika', lastName, birthDate: '1964/08/12' });
			assert.deepEqual(await requestsOf(sandbox, 'POST /identity/verify', (b) => b.identity.firstName === 'Erika'), [
				{
					identity: { ...identity('Mustermann'), nationalId: 'T22000129' },
					address: { ...address, houseNumber: '17' },
					phone: { phoneNumber: '+4915112345678' },
					raw: true,
				},
				{ identity: identity('Partial'), address },
				{ identity: identity('Nomatch'), address },
			]);
			assert.deepEqual(
				out('Verify Identity').map((r) => r.identityVerification),
				[
					{ outcome: 'verified', totalScore: 100 },
					{ outcome: 'review', totalScore: 75 },
					{ outcome: 'notVerified', totalScore: 50 },
				],
			);
		},
	},
	{
		key: 'phoneStatus',
		title: 'Phone: live status of a roaming number',
		generations: true,
		steps: [{ name: 'Get Phone Status', node: 'verificationPhone', operation: 'getPhoneStatus', parameters: { phoneNumber: '+43 650 999-0001' } }],
		async check({ out, sandbox, answer }) {
			assert.deepEqual(await requestsOf(sandbox, 'POST /phone-service/phoneStatus', () => true), [{ phoneNumber: '+436509990001' }]);
			const [status] = out('Get Phone Status');
			assert.deepEqual(status.lookup, { status: 'completed', statusCode: 300, statusDescription: 'Transaction successfully completed', referenceId: answer(status).referenceId });
			assert.deepEqual(status.lineStatus, { subscriberStatus: 'ACTIVE', deviceStatus: 'REACHABLE', roaming: 'ROAMING', roamingCountry: 'Germany' });
		},
	},
	{
		key: 'phoneId',
		title: 'Phone: phone ID with add-ons and consent; an add-on not enabled is a warning',
		generations: true,
		steps: [
			...itemsOf('Numbers', [{ number: '+43 650 1234567' }, { number: '436509992806' }]),
			{
				name: 'Get Phone ID',
				node: 'verificationPhone',
				operation: 'getPhoneId',
				parameters: {
					phoneNumber: '={{ $json.number }}',
					accountLifecycleEvent: 'create',
					addons: ['ageVerify', 'portingHistory', 'simSwap'],
					consent: true,
					ageThreshold: 21,
					pastXDays: 30,
					additionalFields: { externalId: 'e2e-phoneid', originatingIp: '192.0.2.10' },
				},
			},
		],
		async check({ out, sandbox, answer }) {
			const bodies = await requestsOf(sandbox, 'POST /phone-service/phoneid', (b) => b.externalId === 'e2e-phoneid');
			assert.deepEqual(
				bodies.map((b) => b.phoneNumber),
				['436501234567', '436509992806'],
			);
			for (const body of bodies) {
				assert.match(body.consent.timestamp, ISO_TIME);
				assert.deepEqual(body, {
					phoneNumber: body.phoneNumber,
					accountLifecycleEvent: 'create',
					addons: { ageVerify: { ageThreshold: 21 }, portingHistory: { pastXDays: 30 }, simSwap: {} },
					consent: { method: 4, timestamp: body.consent.timestamp },
					externalId: 'e2e-phoneid',
					originatingIp: '192.0.2.10',
				});
			}
			const results = out('Get Phone ID');
			assert.deepEqual(results.map((r) => r.lookup.status), ['completed', 'completed']);
			const summary = (r) => Object.fromEntries(Object.entries(r.addonResults).map(([addon, result]) => [addon, result.result]));
			assert.deepEqual(results.map(summary), [
				{ ageVerify: 'completed', portingHistory: 'completed', simSwap: 'completed' },
				{ ageVerify: 'notEnabled', portingHistory: 'notEnabled', simSwap: 'notEnabled' },
			]);
			assert.deepEqual(answer(results[0]).addons.portingHistory, {
				status: { code: 2800, description: 'Request successfully completed' },
				pastXDays: 30,
				ported: false,
				portingEvents: [],
			});
		},
	},
	{
		key: 'riskScore',
		title: 'Phone: risk score of three numbers, allow, flag and block',
		generations: true,
		steps: [
			...itemsOf('Numbers', [{ number: '+436501234567' }, { number: '+436509990001' }, { number: '+436509990002' }]),
			{
				name: 'Get Risk Score',
				node: 'verificationPhone',
				operation: 'getRiskScore',
				parameters: {
					phoneNumber: '={{ $json.number }}',
					additionalFields: { originatingIp: '192.0.2.10', emailAddress: 'Erika@Example.com', externalId: 'e2e-risk' },
				},
			},
		],
		async check({ out, sandbox }) {
			const bodies = await requestsOf(sandbox, 'POST /phone-service/phoneRiskScore', (b) => b.externalId === 'e2e-risk');
			assert.deepEqual(
				bodies,
				['+436501234567', '+436509990001', '+436509990002'].map((phoneNumber) => ({
					phoneNumber,
					accountLifecycleEvent: 'transact',
					externalId: 'e2e-risk',
					originatingIp: '192.0.2.10',
					emailAddress: 'Erika@Example.com',
				})),
			);
			assert.deepEqual(
				out('Get Risk Score').map((r) => r.riskAssessment),
				[
					{ recommendation: 'allow', score: 120, level: 'low', basis: 'recommendation' },
					{ recommendation: 'flag', score: 520, level: 'medium', basis: 'recommendation' },
					{ recommendation: 'block', score: 870, level: 'very-high', basis: 'recommendation' },
				],
			);
		},
	},
	{
		key: 'fullIntelligence',
		title: 'Phone: full intelligence of a number whose answer has a score only (score bands decide)',
		generations: true,
		steps: [
			{
				name: 'Get Full Intelligence',
				node: 'verificationPhone',
				operation: 'getFullIntelligence',
				parameters: { phoneNumber: '+43 650 999 0003', additionalFields: { externalId: 'e2e-full' } },
			},
		],
		async check({ out, sandbox, answer }) {
			assert.deepEqual(await requestsOf(sandbox, 'POST /phone-service/fullPhoneIntelligence', (b) => b.externalId === 'e2e-full'), [
				{ phoneNumber: '436509990003', externalId: 'e2e-full' },
			]);
			const [full] = out('Get Full Intelligence');
			assert.deepEqual(full.riskAssessment, { recommendation: 'flag', score: 480, level: null, basis: 'scoreBands' });
			assert.equal(full.lookup.status, 'completed');
			assert.equal(answer(full).carrier.name, 'A1 Telekom Austria');
		},
	},
];

module.exports = { CASES };

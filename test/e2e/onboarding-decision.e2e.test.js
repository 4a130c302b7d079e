'use strict';
// examples/onboarding-decision.json in a running n8n server (2.40 and 1.123) against the sandbox
// emulator, as its users run it: a new customer is POSTed to the webhook -> phone risk score +
// address verification + AML check -> one decision (approve / review / reject, with the reasons) ->
// a row in the n8n data table onboarding_decisions, which the webhook answers with (the table created
// first and, in n8n 1.x, picked by id: lib/example-server.js).

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

const { dataTableRows } = require('./lib/data-tables');
const { exampleSuite } = require('./lib/example-server');
const { readExample } = require('./lib/workflows');
const util = require('./lib/util');
const { postJson } = require('./trigger-helpers');

const EXAMPLE = readExample('onboarding-decision.json');
const TABLE = 'onboarding_decisions';

const versions = util.e2eVersions();
const log = (msg) => util.defaultLog(`[onboarding-decision] ${msg}`);

/** What the sign-up backend posts; the emulator's fixtures decide by last name and the phone's last digits. */
const customer = (customerId, firstName, lastName, dateOfBirth, phoneNumber) => ({
	customerId,
	firstName,
	lastName,
	dateOfBirth,
	phoneNumber,
	country: 'AT',
	street: 'Hauptstraße',
	houseNumber: '5',
	zip: '1010',
	city: 'Wien',
});

const CUSTOMERS = {
	approve: customer('C-1001', 'Erika', 'Mustermann', '1964-08-12', '+43 650 123 4567'),
	review: customer('C-1002', 'Erika', 'Partial', '1964-08-12', '+43 650 999 0001'),
	reject: customer('C-1003', 'Viktor', 'Sanctioned', '1970-01-15', '+43 650 999 0002'),
};

/** The row each customer leaves in the data table (the webhook answers with it). */
const ROWS = {
	approve: { customerId: 'C-1001', decision: 'approve', reasons: 'all checks passed', phoneRecommendation: 'allow', phoneRiskScore: 120, addressOutcome: 'verified', amlHits: 0 },
	review: {
		customerId: 'C-1002',
		decision: 'review',
		reasons: 'phone risk: flag (score 520); address: review (PARTIAL_MATCH)',
		phoneRecommendation: 'flag',
		phoneRiskScore: 520,
		addressOutcome: 'review',
		amlHits: 0,
	},
	reject: {
		customerId: 'C-1003',
		decision: 'reject',
		reasons: 'phone risk: block (score 870); AML: 2 SANCTION hit(s)',
		phoneRecommendation: 'block',
		phoneRiskScore: 870,
		addressOutcome: 'verified',
		amlHits: 2,
	},
};

for (const version of versions) {
	describe(`examples/onboarding-decision.json in a running n8n ${version}`, () => {
		const suite = exampleSuite(version, { name: 'onboarding-decision', log, workflows: [EXAMPLE] });
		const { requests } = suite;

		for (const [decision, body] of Object.entries(CUSTOMERS)) {
			test(`${body.firstName} ${body.lastName}: ${decision}, and the webhook answers with the audit row`, async () => {
				const res = await postJson(`${suite.base}/webhook/customer-onboarding/new`, body);
				assert.equal(res.status, 200, `the webhook answered ${res.status}: ${JSON.stringify(res.data)}`);
				const { id, createdAt, updatedAt, ...row } = res.data;
				assert.deepEqual(row, ROWS[decision]);
				assert.ok(id && createdAt && updatedAt, 'a stored row with its id and timestamps');
			});
		}

		test('the table holds one row per customer, and each check got the request the example builds', async () => {
			const rows = await dataTableRows(suite.server, suite.tables[TABLE]);
			assert.deepEqual(
				rows.map((r) => [r.customerId, r.decision]),
				[
					['C-1001', 'approve'],
					['C-1002', 'review'],
					['C-1003', 'reject'],
				],
			);
			assert.deepEqual((await requests('POST /phone-service/phoneRiskScore'))[0], {
				phoneNumber: '+436501234567',
				accountLifecycleEvent: 'create',
				externalId: 'C-1001',
			});
			assert.deepEqual((await requests('POST /address/verify'))[0], {
				country: 'AT',
				address: { street: 'Hauptstraße', number: '5', zip: '1010', city: 'Wien' },
				identity: { firstname: 'Erika', lastname: 'Mustermann', dob: '1964/08/12' },
				compliance: { acceptedTerms: true, reason: 'onboarding' },
			});
			assert.deepEqual((await requests('POST /aml/checkIndividual'))[2], { name: 'Viktor Sanctioned', dob: '1970/01/15' });
		});
	});
}

'use strict';

// Payments: challenge deposit (name match against fixture account holders).

const crypto = require('node:crypto');
const { ok } = require('../http-util');
const v = require('../validation');
const { matchAccount, FAIL_LAST_NAME } = require('../data');

function challengeDeposit({ body }) {
	const amount = v.requirePattern(body, 'amount', /^\d+(\.\d{1,2})?$/, 'must be a decimal string with at most two decimals');
	const currency = v.requirePattern(body, 'currency', /^[A-Z]{3}$/, 'must be a 3-letter currency code in upper case');
	const description = v.requirePattern(body, 'description', /^[A-Za-z0-9-]+$/, 'may only contain letters, digits and hyphens');
	const firstName = v.requireString(body, 'firstName');
	const lastName = v.requireString(body, 'lastName');
	if (body.piiToggle === undefined || body.piiToggle === null) throw v.bad('piiToggle is required');
	if (body.piiToggle !== 0 && body.piiToggle !== 1) throw v.bad('piiToggle must be the integer 0 or 1');
	const nameMatchLogic = v.requireEnum(body, 'nameMatchLogic', ['exact', 'fuzzy']);

	const { account, nameMatchScore } = matchAccount(firstName, lastName, nameMatchLogic);
	const failed = lastName.trim().toLowerCase() === FAIL_LAST_NAME;
	const result = {
		transactionId: crypto.randomUUID(),
		description,
		status: failed ? 'FAIL' : 'OK',
		globalResult: { overall: 'review', totalScore: failed ? 0 : nameMatchScore },
		nameMatchScore,
		iban: account.iban,
		amount,
		currency,
	};
	if (body.piiToggle === 1) {
		result.returnedFirstName = account.firstName;
		result.returnedLastName = account.lastName;
	}
	return ok(result);
}

module.exports = [{ method: 'POST', path: '/payments/challenge-deposit', handler: challengeDeposit }];

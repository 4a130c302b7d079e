'use strict';

// Identity verification fixtures: the last name picks the total score (100 verified, 75 partial,
// 50 no match, 0 failed, 60 an undocumented score); anyone else is verified.

const FULL = 'full';
const PARTIAL = 'partial';
const ABSENT = 'not-present';

const IDENTITY_RESULTS = Object.freeze({
	partial: { totalScore: 75, name: FULL, birthDate: FULL, address: PARTIAL },
	nomatch: { totalScore: 50, name: PARTIAL, birthDate: ABSENT, address: ABSENT },
	failed: { totalScore: 0, name: ABSENT, birthDate: ABSENT, address: ABSENT },
	unsure: { totalScore: 60, name: FULL, birthDate: PARTIAL, address: PARTIAL },
});

const DEFAULT_IDENTITY_RESULT = Object.freeze({ totalScore: 100, name: FULL, birthDate: FULL, address: FULL });

/** Last name (any case) that makes the identity check fail on the provider's side. */
const IDENTITY_ERROR_LAST_NAME = 'explode';

/** The data sources every check is run against. */
const IDENTITY_SOURCES = Object.freeze(['Residents Register', 'Credit Bureau']);

module.exports = { IDENTITY_RESULTS, DEFAULT_IDENTITY_RESULT, IDENTITY_ERROR_LAST_NAME, IDENTITY_SOURCES };

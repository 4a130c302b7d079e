'use strict';

// Address verification fixtures: the person's last name picks the provider's verdict, so that every
// outcome can be reached on purpose; anyone else lives at the address given (OK, EXACT).

const ADDRESS_VERDICTS = Object.freeze({
	partial: { overall: 'REVIEW', matchQuality: 'PARTIAL_MATCH', score: 62, extendedMessage: 'postCodeMatch' },
	nobody: { overall: 'NOK', matchQuality: 'NO_MATCH', score: 0, extendedMessage: 'noMatch' },
	stranger: { overall: 'NOK', matchQuality: 'IDENTITY_MISMATCH', score: 35, extendedMessage: 'identityNotFound' },
	pending: { overall: 'PENDING', matchQuality: 'HOUSENUMBER_MATCH', score: 70, extendedMessage: 'addressFound' },
});

const DEFAULT_ADDRESS_VERDICT = Object.freeze({ overall: 'OK', matchQuality: 'EXACT', score: 100, extendedMessage: 'addressFound' });

/** Last name (any case) that makes the address check fail on the provider's side. */
const ADDRESS_ERROR_LAST_NAME = 'explode';

/** The compliance reasons the provider's client offers for Austrian addresses. */
const COMPLIANCE_REASONS = Object.freeze(['onboarding', 'fraud_prevention', 'regulatory', 'account_recovery', 'other']);

/** "haupt str." -> "Haupt Straße": what the provider's address cleansing does to a street. */
function correctStreet(street) {
	return street
		.trim()
		.replace(/\s+/g, ' ')
		.replace(/(str\.|strasse)$/i, 'straße')
		.replace(/(^|[\s-])(\p{Ll})/gu, (_, before, letter) => before + letter.toUpperCase());
}

module.exports = { ADDRESS_VERDICTS, DEFAULT_ADDRESS_VERDICT, ADDRESS_ERROR_LAST_NAME, COMPLIANCE_REASONS, correctStreet };

'use strict';

// QES onboarding fixtures: the three built-in sessions and the identified person.

const QES_SESSIONS = Object.freeze({
	'qes-completed-001': { status: 'completed', isVerified: true },
	'qes-pending-002': { status: 'pending', isVerified: false },
	'qes-rejected-003': { status: 'rejected', isVerified: false },
});

/** Fixed times used by the built-in sessions so answers are reproducible. */
const QES_TIMES = Object.freeze({
	createdAt: '2024-05-14T10:02:11.000Z',
	signedAt: '2024-05-14T10:21:33.000Z',
	finalizedAt: '2024-05-14T10:19:05.000Z',
});

const QES_PERSON = Object.freeze({
	email: 'erika.mustermann@example.com',
	gender: 'F',
	firstName: 'Erika',
	lastName: 'Mustermann',
	birthDate: '1984-08-12',
	birthPlace: 'Berlin',
	nationality: 'DE',
	phoneNumber: '+4915112345678',
	documentDetails: {
		type: 'ID_CARD',
		number: 'L01X00T47',
		issuedOn: '2019-01-10',
		expiryDate: '2029-01-09',
		issuanceCountry: 'DE',
		issuanceAuthority: 'Stadt Berlin',
	},
});

const QES_MESSAGES = Object.freeze({
	completed: 'Verification completed',
	pending: 'Verification pending',
	rejected: 'Verification rejected',
});

module.exports = { QES_SESSIONS, QES_TIMES, QES_PERSON, QES_MESSAGES };

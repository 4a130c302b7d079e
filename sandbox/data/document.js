'use strict';

// Document-verification fixture: the subject every journey "recognises".

const DOCUMENT_SUBJECT = Object.freeze({
	age: 34,
	disabilityPercentage: 60,
	firstName: 'Erika',
	lastName: 'Mustermann',
	dateOfBirth: '1990-08-12',
	nationality: 'DEU',
	documentType: 'ID_CARD',
	documentNumber: 'L01X00T47',
	expiryDate: '2031-08-11',
	gender: 'F',
	addressSingleLine: 'Heidestrasse 17, 51147 Koeln, DEU',
	issuingCountry: 'DEU',
	expeditor: 'Stadt Koeln',
});

module.exports = { DOCUMENT_SUBJECT };

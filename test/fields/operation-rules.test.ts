import type { IExecuteFunctions } from 'n8n-workflow';

import { FieldError } from '../../nodes/shared/fields/field-error';
import type { FieldValues, ValueField } from '../../nodes/shared/operation/operation-types';
import { operationOf } from '../helpers/operation-tables';

/**
 * The rules the operations write for themselves (currency, description, language, add-ons, codes...),
 * taken from the real operation entries and called directly: one row per (operation, field, input)
 * with the value sent or the error text. The shared rules are in rules.test.ts.
 */

type Outcome = { wire: unknown } | { error: string };

/** The field's rule applied to `value`; the Options are read before the fields, so Clean Phone Number is on unless `values` says otherwise. */
function outcome(id: string, name: string, value: unknown, values: FieldValues = {}): Outcome {
	const op = operationOf(id);
	const field = [...op.fields, ...(op.options ?? [])].find((f): f is ValueField => f.rule !== undefined && f.property.name === name)!;
	try {
		return { wire: field.rule.toWire(value, { name, property: field.property, values: { cleanPhoneNumber: true, ...values }, ctx: {} as IExecuteFunctions, itemIndex: 0 }) };
	} catch (error) {
		expect(error).toBeInstanceOf(FieldError);
		return { error: (error as Error).message };
	}
}

const AMOUNT = 'amount must be a number above 0 with at most 2 decimals and a dot as decimal separator, such as 1.50';
const CURRENCY = 'currency must be a three-letter ISO 4217 currency code such as EUR';
const DESCRIPTION = 'description must be only letters, digits and hyphens (no spaces or other characters)';
const COUNTRY = 'country must be a two-letter ISO 3166-1 country code such as DE';
const SMS_NUMBER = 'phoneNumber must be 6 to 20 digits (international format without +, e.g. 436501234567) once formatting is removed';
const E164 = 'phoneNumber must be in E.164 format: + and 7 to 15 digits, the first not 0, e.g. +4915112345678';
const OTP = 'securityFactor must be 3 to 10 digits (the value is not shown: it is a one-time code)';

type Row = [string, string, unknown, FieldValues, Outcome];

/** Rows of texts the field refuses: each error is `rule` (it begins with the field's name), then ', got "<text>"'. */
const refused = (id: string, name: string, rule: string, ...texts: string[]): Row[] => texts.map((text) => [id, name, text, {}, { error: `${rule}, got "${text}"` }]);

const rows: Row[] = [
	...refused('payments.challengeDeposit', 'amount', AMOUNT, '1.234', '0', 'abc', '1.', '.5', '1e3'),
	['payments.challengeDeposit', 'currency', 'eur', {}, { wire: 'EUR' }],
	['payments.challengeDeposit', 'currency', 'isk', {}, { wire: 'ISK' }],
	...refused('payments.challengeDeposit', 'currency', CURRENCY, 'EURO', 'EU', 'E1R', '€'),
	...refused('payments.challengeDeposit', 'description', DESCRIPTION, 'order 4711', 'order_4711', 'bestellung#1', 'über'),
	['payments.challengeDeposit', 'piiToggle', 'yes', {}, { error: 'piiToggle must be true or false, got "yes"' }],
	['payments.challengeDeposit', 'nameMatchLogic', 'loose', {}, { error: 'nameMatchLogic must be one of exact, fuzzy, got "loose"' }],
	['payments.initiatePayment', 'returnUrl', 'shop.example.com', {}, { error: 'returnUrl must be an http:// or https:// URL, got "shop.example.com"' }],
	['payments.initiatePayment', 'language', 'DE', {}, { wire: 'de' }],
	['payments.initiatePayment', 'language', 'deu', {}, { error: 'language must be a two-letter ISO 639-1 language code such as de, got "deu"' }],
	['payments.initiatePayment', 'country', 'de', {}, { wire: 'DE' }],
	['payments.initiatePayment', 'country', 'DEU', {}, { error: `${COUNTRY}, got "DEU"` }],
	...refused('kyb.search', 'country', COUNTRY, 'DEU', 'D', '1A', 'd e'),
	['kyb.getDetails', 'timeoutMs', 0, {}, { error: 'timeoutMs must be a whole number of at least 1, got 0' }],
	['kyb.getDetails', 'include', ['x'], {}, { error: 'include must be a selection of addresses, documents, financials, officers, ownerships, transparency, got ["x"]' }],
	['kyb.retrieveDocument', 'binaryPropertyName', 'a b', {}, { error: 'binaryPropertyName must be letters, digits, _ and -, got "a b"' }],
	['kyb.listCompanyProfiles', 'limit', 0, {}, { error: 'limit must be a whole number of at least 1, got 0' }],
	['document.addImage', 'imageSide', 'top', {}, { error: 'imageSide must be one of front, back, selfie, got "top"' }],
	['document.addImage', 'storeOnly', 'yes', {}, { error: 'storeOnly must be true or false, got "yes"' }],
	['document.addImage', 'passThroughData', '"text"', {}, { error: 'passThroughData must be a JSON object, got ""text""' }],
	['document.addImage', 'journeyId', '  ', {}, { error: 'journeyId is required and must not be blank' }],
	['document.addImage', 'imageData', 'data:image/png;base64,iVBO\nRw0KGgo=', {}, { wire: 'iVBORw0KGgo=' }],
	['document.addImage', 'imageData', 'data:image/jpeg;base64,YWJj\nZA', {}, { wire: 'YWJjZA==' }],
	...refused('document.addImage', 'imageData', 'imageData must be base64-encoded data (letters, digits, + and /, padded with =; a data: URL prefix and line breaks are removed)', 'not base64!', 'ab-_cd', 'aGVsbG8=a'),
	['document.verifyAge', 'minDisabilityPercentage', 101, {}, { error: 'minDisabilityPercentage must be a whole number from 0 to 100, got 101' }],
	['document.verifyAge', 'ageFrom', 151, {}, { error: 'ageFrom must be a whole number from 0 to 150, got 151' }],
	['document.verifyAge', 'ageTo', -1, {}, { error: 'ageTo must be a whole number from 0 to 150, got -1' }],
	['document.verifyAge', 'ageTo', 17.5, {}, { error: 'ageTo must be a whole number from 0 to 150, got 17.5' }],
	['document.verifyAge', 'ageCondition', 'both', {}, { error: 'ageCondition must be one of atLeast, atMost, none, got "both"' }],
	['document.startHostedJourney', 'processName', ' ', {}, { error: 'processName is required and must not be blank' }],
	['aml.checkIndividual', 'threshold', 1.5, {}, { error: 'threshold must be a number from 0 to 1, got 1.5' }],
	['aml.checkIndividual', 'countries', 'NLD', {}, { error: 'countries must be comma-separated two-letter ISO 3166-1 country codes such as NL,GB, got "NLD"' }],
	['aml.checkIndividual', 'dob', '1980', {}, { error: 'dob must be a full date as yyyy/mm/dd: a year alone needs search constraints (set Countries), got "1980"' }],
	['aml.checkIndividual', 'dob', '1980', { countries: 'NL' }, { wire: '1980' }],
	['aml.checkIndividual', 'matchingMode', 'loose', {}, { error: 'matchingMode must be one of exact, fuzzy, got "loose"' }],
	['aml.checkIndividual', 'dob', '15.01.1970', {}, { error: 'dob must be a real date as yyyy/mm/dd (or an ISO date), got "15.01.1970"' }],
	['aml.checkIndividual', 'dob', '2999-01-01', {}, { error: 'dob must be a date after 1900 and not in the future, got "2999-01-01"' }],
	['aml.checkIndividual', 'dob', '1900', { countries: 'NL' }, { error: 'dob must be a date after 1900 and not in the future, got "1900"' }],
	['aml.checkIndividual', 'countries', 'Netherlands', {}, { error: 'countries must be comma-separated two-letter ISO 3166-1 country codes such as NL,GB, got "Netherlands"' }],
	['aml.registerIndividual', 'gender', 'x', {}, { error: 'gender must be one of female, male, got "x"' }],
	['aml.registerIndividual', 'dob', '30.04.1980', {}, { error: 'dob must be a real date as yyyy/mm/dd (or an ISO date), got "30.04.1980"' }],
	['aml.registerIndividual', 'fuzzySearch', 'maybe', {}, { error: 'fuzzySearch must be true or false, got "maybe"' }],
	['phone.sendOtp', 'phoneNumber', '+43 650', { cleanPhoneNumber: false }, { error: 'phoneNumber must be 6 to 20 digits (international format without +, e.g. 436501234567), got "+43 650"' }],
	['phone.sendOtp', 'phoneNumber', '123456', {}, { wire: '123456' }],
	['phone.sendOtp', 'phoneNumber', '12345678901234567890', {}, { wire: '12345678901234567890' }],
	...refused('phone.sendOtp', 'phoneNumber', SMS_NUMBER, '12345', '123456789012345678901', '+43 650 CALL-ME', '43#6501234567'),
	...refused('phone.sendOtp', 'email', 'email must be a valid e-mail address', 'jane@', 'jane.example.com', 'jane @example.com'),
	['phone.sendOtp', 'method', 'fax', {}, { error: 'method must be one of sms, email, got "fax"' }],
	['phone.sendOtp', 'externalId', 'x'.repeat(100), {}, { wire: 'x'.repeat(100) }],
	['phone.sendOtp', 'externalId', 'x'.repeat(101), {}, { error: `externalId must be at most 100 characters, got "${'x'.repeat(57)}..."` }],
	['phone.sendOtp', 'voiceLang', 'English!', {}, { error: 'voiceLang must be a language code such as en-US or de-AT, got "English!"' }],
	['phone.sendOtp', 'voiceLang', 'de_at', {}, { wire: 'de-AT' }],
	['phone.sendOtp', 'voiceLang', 'EN', {}, { wire: 'en' }],
	['phone.sendOtp', 'securityFactor', ' 482913 ', {}, { wire: '482913' }],
	['phone.sendOtp', 'securityFactor', '123', {}, { wire: '123' }],
	['phone.sendOtp', 'securityFactor', '1234567890', {}, { wire: '1234567890' }],
	...refused('phone.sendOtp', 'securityFactor', 'securityFactor must be 3 to 10 digits', '12', '12345678901', '12a4'),
	['phone.checkOtp', 'securityFactor', 1234, {}, { wire: '1234' }],
	['phone.checkOtp', 'securityFactor', '12', {}, { error: OTP }],
	['phone.checkOtp', 'securityFactor', '12345678901', {}, { error: OTP }],
	['phone.checkOtp', 'securityFactor', '12 34', {}, { error: OTP }],
	['phone.checkOtp', 'securityFactor', '  ', {}, { error: 'securityFactor is required and must not be blank' }],
	['phone.getPhoneId', 'originatingIp', '300.1.1.1', {}, { error: 'originatingIp must be an IPv4 or IPv6 address such as 192.0.2.10 or 2001:db8::1, got "300.1.1.1"' }],
	['phone.getPhoneId', 'consent', false, {}, { error: "consent must be on: the add-ons Age Verification and Contact look up personal data and need the person's consent, got false" }],
	['phone.getPhoneId', 'pastXDays', 0, {}, { error: 'pastXDays must be a whole number from 1 to 3650, got 0' }],
	['phone.getRiskScore', 'originatingIp', '2001:db8::1', {}, { error: 'originatingIp must be an IPv4 address such as 192.0.2.10, got "2001:db8::1"' }],
	['phone.getFullIntelligence', 'externalId', 'a b', {}, { error: 'externalId must be at most 80 letters, digits, dots, underscores and hyphens, got "a b"' }],
	['phone.getFullIntelligence', 'phoneNumber', '1234567', {}, { error: 'phoneNumber must be 8 to 20 digits with the country code, without + (e.g. 436501234567) once formatting is removed, got "1234567"' }],
	['qes.getVerification', 'binaryPropertyPrefix', 'signed doc.', {}, { error: 'binaryPropertyPrefix must be letters, digits, _ or -, got "signed doc."' }],
	['qes.getVerification', 'sessionId', '   ', {}, { error: 'sessionId is required and must not be blank' }],
	['qes.createSessionLink', 'phoneNumber', '+49 1511 2345678', {}, { wire: '+4915112345678' }],
	...refused('qes.createSessionLink', 'docUrl', 'docUrl must be an https:// URL', 'http://example.com/a.pdf', 'contract.pdf'),
	...refused('qes.createSessionLink', 'phoneNumber', E164, '4915112345678', '+49151', '+4915112345678901'),
	['qes.createSessionLink', 'email', 'erika@', {}, { error: 'email must be a valid e-mail address, got "erika@"' }],
	['qes.createSessionLink', 'redirectUrl', 'example.com/done', {}, { error: 'redirectUrl must be an http:// or https:// URL, got "example.com/done"' }],
	...refused('qes.configureWebhook', 'webhookUrl', 'webhookUrl must be an http:// or https:// URL', 'ftp://example.com/hook', 'https://'),
	['qes.createSessionLink', 'signForms', { form: [{}] }, {}, { error: 'signForms entry 1: fieldId must be a non-blank text, got ""' }],
];

describe("the operations' own rules: input -> wire value or error text", () => {
	it.each(rows)('%s %s %j', (id, name, value, values, expected) => {
		expect(outcome(id, name, value, values)).toEqual(expected);
	});
});

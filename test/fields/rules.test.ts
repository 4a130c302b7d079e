import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bic, iban, ibanChecksumMatches } from '../../nodes/shared/fields/bank-account';
import { FieldError } from '../../nodes/shared/fields/field-error';
import { entriesOf } from '../../nodes/shared/fields/fixed-collection';
import { birthDate, countryCode, postalCode } from '../../nodes/shared/fields/person-rules';
import { internationalNumber, phoneDigits } from '../../nodes/shared/fields/phone-number';
import { boolean, check, choice, date, decimal, flagSet, integer, jsonObject, number, text, textList } from '../../nodes/shared/fields/rules';
import type { FieldValues, Rule } from '../../nodes/shared/operation/operation-types';

/**
 * Every rule a field can have, called directly: one row per (rule, input) with the value sent to the
 * API or the exact error text the user reads. No n8n, no emulator: a rule is a plain function.
 */

type Outcome = { wire: unknown } | { error: string };

const base: INodeProperties = { displayName: 'F', name: 'f', type: 'string', default: '' };
const required: Partial<INodeProperties> = { required: true };
const range = (minValue?: number, maxValue?: number): Partial<INodeProperties> => ({ type: 'number', typeOptions: { minValue, maxValue } });
const options = (...values: Array<string | number>): Partial<INodeProperties> => ({ type: 'options', options: values.map((value) => ({ name: String(value), value })) });
const noCleaning: FieldValues = { cleanPhoneNumber: false };

/** What the rule makes of `value` for a field named `f`: the wire value, or the FieldError's text. */
function outcome(rule: Rule, value: unknown, property: Partial<INodeProperties> = {}, values: FieldValues = {}): Outcome {
	const field = { name: 'f', property: { ...base, ...property }, values, ctx: {} as IExecuteFunctions, itemIndex: 0 };
	try {
		return { wire: rule.toWire(value, field) };
	} catch (error) {
		expect(error).toBeInstanceOf(FieldError);
		expect((error as FieldError).field).toBe('f');
		return { error: (error as Error).message };
	}
}

const ISO_DATE = 'a real date as yyyy/mm/dd (or an ISO date)';
const AMOUNT = 'a number above 0 with at most 2 decimals and a dot as decimal separator, such as 1.50';
const COUNTRY = 'an ISO 3166-1 country code of 2 or 3 letters, such as AT or AUT';
const POSTAL = 'a postal code of letters, digits, spaces and hyphens (at most 12 characters)';
const BIRTH = 'a date of birth as yyyy/mm/dd from 1900/01/01 to today (yyyy-mm-dd, dd-mm-yyyy and dd.mm.yyyy are converted)';
const DIGITS = '6 to 20 digits with the country code, without + (e.g. 436501234567)';
const E164 = 'an international number: + and 6 to 15 digits, the first not 0 (e.g. +436501234567)';
const IBAN = 'an IBAN: country code, 2 check digits and 11 to 30 letters or digits (spaces are removed), such as DE89 3704 0044 0532 0130 00';
const IBAN_SUM = 'an IBAN whose check digits match the rest (a typing error changes them)';
const BIC = 'a BIC of 8 or 11 letters and digits (bank, country, location and optional branch), such as COBADEFFXXX';
const amount = decimal({ maxDecimals: 2, positive: true });
const upperCode = text({ normalize: (v) => v.trim().toUpperCase(), checks: [check.pattern(/^[A-Z]{3}$/, 'three letters'), check.maxLength(2)] });

type Row = [string, Rule, unknown, Partial<INodeProperties>, FieldValues, Outcome];

/** Rows of texts `rule` refuses: each error is 'f must be <hint>, got "<text>"'. */
const refused = (name: string, rule: Rule, hint: string, ...texts: string[]): Row[] => texts.map((text) => [name, rule, text, {}, {}, { error: `f must be ${hint}, got "${text}"` }]);

const rows: Row[] = [
	// text
	['text', text(), 'abc', {}, {}, { wire: 'abc' }],
	['text', text(), 42, {}, {}, { wire: '42' }],
	['text', text(), true, {}, {}, { error: 'f must be text, got true' }],
	['text', text(), { a: 1 }, {}, {}, { error: 'f must be text, got {"a":1}' }],
	['text', text(), '   ', {}, {}, { wire: '   ' }],
	['text (required)', text(), '   ', required, {}, { error: 'f is required and must not be blank' }],
	['text (normalized before the checks)', upperCode, ' eur ', {}, {}, { error: 'f must be at most 2 characters, got " eur "' }],
	['text (first failing check named)', upperCode, 'e1', {}, {}, { error: 'f must be three letters, got "e1"' }],
	['text (long value quoted short)', text({ checks: [check.maxLength(3)] }), 'x'.repeat(80), {}, {}, { error: `f must be at most 3 characters, got "${'x'.repeat(57)}..."` }],
	['check.email', text({ checks: [check.email] }), 'jane@example.com', {}, {}, { wire: 'jane@example.com' }],
	['check.email', text({ checks: [check.email] }), 'jane@example', {}, {}, { error: 'f must be a valid e-mail address, got "jane@example"' }],
	['check.httpUrl', text({ checks: [check.httpUrl] }), 'http://shop.example.com/done', {}, {}, { wire: 'http://shop.example.com/done' }],
	['check.httpUrl', text({ checks: [check.httpUrl] }), 'ftp://shop.example.com', {}, {}, { error: 'f must be an http:// or https:// URL, got "ftp://shop.example.com"' }],
	['check.httpUrl', text({ checks: [check.httpUrl] }), 'shop.example.com', {}, {}, { error: 'f must be an http:// or https:// URL, got "shop.example.com"' }],
	['check.httpsUrl', text({ checks: [check.httpsUrl] }), 'http://hooks.example.com', {}, {}, { error: 'f must be an https:// URL, got "http://hooks.example.com"' }],
	['check.httpsUrl', text({ checks: [check.httpsUrl] }), 'https://hooks.example.com/x', {}, {}, { wire: 'https://hooks.example.com/x' }],
	['check.headerName', text({ checks: [check.headerName] }), 'X-Api-Key', {}, {}, { wire: 'X-Api-Key' }],
	['check.headerName', text({ checks: [check.headerName] }), 'X Api Key', {}, {}, { error: "f must be letters, digits and !#$%&'*+.^_`|~-, got \"X Api Key\"" }],
	// integer and number: limits come from the property
	['integer', integer, '5', range(1, 10), {}, { wire: 5 }],
	['integer', integer, 10, range(1, 10), {}, { wire: 10 }],
	['integer', integer, 5.5, range(1, 10), {}, { error: 'f must be a whole number from 1 to 10, got 5.5' }],
	['integer', integer, 0, range(1, 10), {}, { error: 'f must be a whole number from 1 to 10, got 0' }],
	['integer', integer, '11', range(1, 10), {}, { error: 'f must be a whole number from 1 to 10, got "11"' }],
	['integer', integer, 'five', range(1), {}, { error: 'f must be a whole number of at least 1, got "five"' }],
	['integer', integer, ' ', range(undefined, 3), {}, { error: 'f must be a whole number of at most 3, got " "' }],
	['integer', integer, -7, {}, {}, { wire: -7 }],
	['integer', integer, true, {}, {}, { error: 'f must be a whole number, got true' }],
	['number', number, '0.5', range(0.1, 600), {}, { wire: 0.5 }],
	['number', number, 0.05, range(0.1, 600), {}, { error: 'f must be a number from 0.1 to 600, got 0.05' }],
	['number', number, Number.NaN, {}, {}, { error: 'f must be a number, got null' }],
	// boolean
	['boolean', boolean(), true, {}, {}, { wire: true }],
	['boolean', boolean(), 'false', {}, {}, { wire: false }],
	['boolean', boolean(), 'yes', {}, {}, { error: 'f must be true or false, got "yes"' }],
	['boolean', boolean(), 1, {}, {}, { error: 'f must be true or false, got 1' }],
	['boolean (as 0/1)', boolean((v) => (v ? 1 : 0)), 'true', {}, {}, { wire: 1 }],
	// choice: the property's options
	['choice', choice, 'b', options('a', 'b'), {}, { wire: 'b' }],
	['choice', choice, 'c', options('a', 'b'), {}, { error: 'f must be one of a, b, got "c"' }],
	['choice', choice, 2, options(1, 2), {}, { wire: '2' }],
	// flagSet: chosen options as { option: true }, in the property's order
	['flagSet', flagSet, ['c', 'a'], options('a', 'b', 'c'), {}, { wire: { a: true, c: true } }],
	['flagSet', flagSet, ' b, a ', options('a', 'b', 'c'), {}, { wire: { a: true, b: true } }],
	['flagSet', flagSet, { a: true, b: false }, options('a', 'b', 'c'), {}, { wire: { a: true } }],
	['flagSet', flagSet, [], options('a', 'b', 'c'), {}, { wire: undefined }],
	['flagSet', flagSet, ['d'], options('a', 'b', 'c'), {}, { error: 'f must be a selection of a, b, c, got ["d"]' }],
	['flagSet', flagSet, { a: 'yes' }, options('a', 'b', 'c'), {}, { error: 'f must be a selection of a, b, c, got {"a":"yes"}' }],
	['flagSet', flagSet, 3, options('a', 'b', 'c'), {}, { error: 'f must be a selection of a, b, c, got 3' }],
	// jsonObject
	['jsonObject', jsonObject, '{"a":1}', {}, {}, { wire: { a: 1 } }],
	['jsonObject', jsonObject, { a: 1 }, {}, {}, { wire: { a: 1 } }],
	...refused('jsonObject', jsonObject, 'a JSON object', '[1]', '{a:1}', 'null'),
	// textList
	['textList', textList, 'a, b,,c ', {}, {}, { wire: ['a', 'b', 'c'] }],
	['textList', textList, ['x', ' y '], {}, {}, { wire: ['x', 'y'] }],
	['textList', textList, ' , ', {}, {}, { error: 'f must be at least one non-blank name (comma-separated or an array), got " , "' }],
	['textList', textList, 5, {}, {}, { error: 'f must be at least one non-blank name (comma-separated or an array), got 5' }],
	// date: sent as yyyy/mm/dd
	['date', date, '1980/04/30', {}, {}, { wire: '1980/04/30' }],
	['date', date, ' 1980-04-30 ', {}, {}, { wire: '1980/04/30' }],
	['date', date, '1980-04-30T22:00:00+02:00', {}, {}, { wire: '1980/04/30' }],
	['date', date, new Date(Date.UTC(1980, 3, 30)), {}, {}, { wire: '1980/04/30' }],
	['date (n8n DateTime)', date, { toISO: () => '1980-04-30T00:00:00.000+02:00' }, {}, {}, { wire: '1980/04/30' }],
	...refused('date', date, ISO_DATE, '1980-02-30', '30.04.1980'),
	['date', date, 19800430, {}, {}, { error: `f must be ${ISO_DATE}, got 19800430` }],
	// decimal: amounts as strings
	['decimal', amount, ' 49.90 ', {}, {}, { wire: '49.90' }],
	['decimal', amount, '5', {}, {}, { wire: '5' }],
	['decimal', amount, 5, {}, {}, { wire: '5.00' }],
	['decimal', amount, 1.5, {}, {}, { wire: '1.50' }],
	['decimal (a float sum)', amount, 0.1 + 0.2, {}, {}, { wire: '0.30' }],
	['decimal', amount, 1.234, {}, {}, { error: `f must be ${AMOUNT}, got 1.234` }],
	...refused('decimal', amount, AMOUNT, '1,50', '0.00', '-1'),
	['decimal', amount, true, {}, {}, { error: `f must be ${AMOUNT}, got true` }],
	['decimal (required)', amount, '  ', required, {}, { error: 'f is required and must not be blank' }],
	['decimal (zero allowed)', decimal({ maxDecimals: 3 }), '0.125', {}, {}, { wire: '0.125' }],
	// person-rules
	['countryCode', countryCode, ' at ', {}, {}, { wire: 'AT' }],
	['countryCode', countryCode, 'aut', {}, {}, { wire: 'AUT' }],
	...refused('countryCode', countryCode, COUNTRY, 'A', 'AUST'),
	['postalCode', postalCode, ' 1010 ', {}, {}, { wire: '1010' }],
	['postalCode', postalCode, 'SW1A 1AA', {}, {}, { wire: 'SW1A 1AA' }],
	['postalCode', postalCode, '30-392', {}, {}, { wire: '30-392' }],
	...refused('postalCode', postalCode, POSTAL, '-1010', '1234567890123', '51147#'),
	['birthDate', birthDate, '1980-04-30', {}, {}, { wire: '1980/04/30' }],
	['birthDate', birthDate, '30.04.1980', {}, {}, { wire: '1980/04/30' }],
	['birthDate', birthDate, '30-04-1980', {}, {}, { wire: '1980/04/30' }],
	['birthDate', birthDate, '1980-04-30T00:00:00.000Z', {}, {}, { wire: '1980/04/30' }],
	['birthDate', birthDate, '1900/01/01', {}, {}, { wire: '1900/01/01' }],
	...refused('birthDate', birthDate, BIRTH, '1899/12/31', '2999-01-01', '31.02.1980', '30.04-1980', '1964/02/30', '08/12/1964'),
	// phone-number: cleaning (Options > Clean Phone Number, read before the fields) is on unless turned off
	['phoneDigits', phoneDigits(6, 20), '+43 (650) 123-4567', {}, {}, { wire: '436501234567' }],
	['phoneDigits', phoneDigits(6, 20), '12', {}, {}, { error: `f must be ${DIGITS} once formatting is removed, got "12"` }],
	['phoneDigits (no cleaning)', phoneDigits(6, 20), ' 436501234567 ', {}, noCleaning, { wire: '436501234567' }],
	['phoneDigits (no cleaning)', phoneDigits(6, 20), '+43 650', {}, noCleaning, { error: `f must be ${DIGITS}, got "+43 650"` }],
	['internationalNumber', internationalNumber, '43 650 1234567', {}, {}, { wire: '+436501234567' }],
	['internationalNumber', internationalNumber, '+43 (650) 1234567', {}, {}, { wire: '+436501234567' }],
	['internationalNumber', internationalNumber, '0650 1234567', {}, {}, { error: `f must be ${E164} once formatting is removed, got "0650 1234567"` }],
	['internationalNumber (no cleaning)', internationalNumber, '+436501234567', {}, noCleaning, { wire: '+436501234567' }],
	['internationalNumber (no cleaning)', internationalNumber, '436501234567', {}, noCleaning, { error: `f must be ${E164}, got "436501234567"` }],
	// bank-account
	['iban', iban, 'de89 3704 0044 0532 0130 00', {}, {}, { wire: 'DE89370400440532013000' }],
	['iban', iban, 'GB82 WEST 1234 5698 7654 32', {}, {}, { wire: 'GB82WEST12345698765432' }],
	['iban', iban, 'DE89 3704 0044 0532 0130 01', {}, {}, { error: `f must be ${IBAN_SUM}, got "DE89 3704 0044 0532 0130 01"` }],
	['iban', iban, 'DE89 3704', {}, {}, { error: `f must be ${IBAN}, got "DE89 3704"` }],
	['iban', iban, 12345, {}, {}, { error: `f must be ${IBAN}, got 12345` }],
	['bic', bic, 'coba de ff xxx', {}, {}, { wire: 'COBADEFFXXX' }],
	['bic', bic, 'COBADEFF', {}, {}, { wire: 'COBADEFF' }],
	['bic', bic, 'COBADEF', {}, {}, { error: `f must be ${BIC}, got "COBADEF"` }],
	['bic', bic, 5, {}, {}, { error: `f must be ${BIC}, got 5` }],
];

describe('field rules: input -> wire value or error text', () => {
	it.each(rows)('%s: %p', (_name, rule, value, property, values, expected) => {
		expect(outcome(rule, value, property, values)).toEqual(expected);
	});
});

describe('field rules: the hint the editor shows ("Must be <hint>.")', () => {
	const hintOf = (rule: Rule, property: Partial<INodeProperties> = {}) => (typeof rule.hint === 'function' ? rule.hint({ ...base, ...property }) : rule.hint);
	it.each<[string, Rule, Partial<INodeProperties>, string | undefined]>([
		['text without checks', text(), {}, undefined],
		['text with checks', text({ checks: [check.email, check.maxLength(5)] }), {}, 'a valid e-mail address, at most 5 characters'],
		['integer in a range', integer, range(1, 10), 'a whole number from 1 to 10'],
		['integer with a minimum', integer, range(0), 'a whole number of at least 0'],
		['number with a maximum', number, range(undefined, 5), 'a number of at most 5'],
		['number without limits', number, {}, 'a number'],
		['date', date, {}, 'a date as yyyy/mm/dd (an ISO date such as 1980-04-30 or an n8n date is converted)'],
		['decimal', amount, {}, AMOUNT],
		['decimal, zero allowed', decimal({ maxDecimals: 3 }), {}, 'a number with at most 3 decimals and a dot as decimal separator, such as 1.500'],
		['countryCode', countryCode, {}, COUNTRY],
		['birthDate', birthDate, {}, BIRTH],
		['phoneDigits', phoneDigits(6, 20), {}, DIGITS],
		['internationalNumber', internationalNumber, {}, E164],
		['iban', iban, {}, `${IBAN}, with check digits that match`],
		['bic', bic, {}, BIC],
	])('%s', (_name, rule, property, hint) => {
		expect(hintOf(rule, property)).toBe(hint);
	});
});

describe('ISO 13616 check digits', () => {
	it.each([
		['DE89370400440532013000', true],
		['GB82WEST12345698765432', true],
		['AT611904300234573201', true],
		['AT611904300234573202', false],
		['GB28WEST12345698765432', false],
	])('%s: %p', (value, matches) => {
		expect(ibanChecksumMatches(value)).toBe(matches);
	});
});

describe('fixed collections: the entries of { group: [...] } or of an array', () => {
	it.each<[unknown, unknown[] | string]>([
		[{ entry: [{ a: 1 }, { a: 2 }] }, [{ a: 1 }, { a: 2 }]],
		[[{ a: 1 }], [{ a: 1 }]],
		[{}, []],
		[{ entry: null }, []],
		['x', 'f must be a list of entries, got "x"'],
		[null, 'f must be a list of entries, got null'],
		[{ entry: 'x' }, 'f must be a list of entries, got "x"'],
	])('%j', (value, expected) => {
		if (typeof expected === 'string') expect(() => entriesOf('f', value, 'entry')).toThrow(new FieldError('f', expected));
		else expect(entriesOf('f', value, 'entry')).toEqual(expected);
	});
});

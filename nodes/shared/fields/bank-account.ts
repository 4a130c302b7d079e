import { ruleBroken } from './field-error';
import type { Rule } from './field-types';

/**
 * Rules of bank account fields, shared by the payment initiation and the hosted journey's
 * validation data: an IBAN whose check digits match (ISO 13616), and a BIC (ISO 9362).
 */

const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const IBAN_HINT =
	'an IBAN: country code, 2 check digits and 11 to 30 letters or digits (spaces are removed), such as DE89 3704 0044 0532 0130 00';
const IBAN_CHECKSUM = 'an IBAN whose check digits match the rest (a typing error changes them)';

/** ISO 13616: with its first four characters moved to the end and letters as 10 to 35, an IBAN is 1 modulo 97. */
export function ibanChecksumMatches(iban: string): boolean {
	let remainder = 0;
	for (const char of iban.slice(4) + iban.slice(0, 4)) {
		const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
		for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
	}
	return remainder === 1;
}

/** An IBAN, sent without spaces in upper case: refused when its form or its check digits are wrong. */
export const iban: Rule = {
	hint: `${IBAN_HINT}, with check digits that match`,
	toWire: (value, field) => {
		if (typeof value !== 'string') throw ruleBroken(field.name, IBAN_HINT, value);
		const compact = value.replace(/\s+/g, '').toUpperCase();
		if (!IBAN_SHAPE.test(compact)) throw ruleBroken(field.name, IBAN_HINT, value);
		if (!ibanChecksumMatches(compact)) throw ruleBroken(field.name, IBAN_CHECKSUM, value);
		return compact;
	},
};

const BIC_HINT =
	'a BIC of 8 or 11 letters and digits (bank, country, location and optional branch), such as COBADEFFXXX';

/** A BIC (SWIFT code), sent without spaces in upper case. */
export const bic: Rule = {
	hint: BIC_HINT,
	toWire: (value, field) => {
		const compact = typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() : '';
		if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(compact))
			throw ruleBroken(field.name, BIC_HINT, value);
		return compact;
	},
};

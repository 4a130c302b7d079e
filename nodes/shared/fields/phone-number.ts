import { ruleBroken } from './field-error';
import type { Rule, ValueField } from './field-types';
import { boolean } from './rules';

/** What cleaning removes from a pasted number before it is checked. */
const FORMATTING = /[\s+\-()./]/g;

/** Whether this item's number is cleaned first: Options > Clean Phone Number, on unless turned off. */
const cleans = (values: Record<string, unknown>) => values.cleanPhoneNumber !== false;

/**
 * A number with its country code as digits only (436501234567), `min` to `max` digits. Cleaning
 * removes +, spaces, dashes, dots, slashes and parentheses first.
 */
export function phoneDigits(min: number, max: number): Rule {
	const hint = `${min} to ${max} digits with the country code, without + (e.g. 436501234567)`;
	const pattern = new RegExp(`^[0-9]{${min},${max}}$`);
	return {
		hint,
		toWire: (value, field) => {
			const clean = cleans(field.values);
			const digits = clean ? String(value).replace(FORMATTING, '') : String(value).trim();
			if (!pattern.test(digits))
				throw ruleBroken(field.name, clean ? `${hint} once formatting is removed` : hint, value);
			return digits;
		},
	};
}

const E164 = 'an international number: + and 6 to 15 digits, the first not 0 (e.g. +436501234567)';

/**
 * E.164: + and the digits with the country code (+436501234567). Cleaning removes formatting and
 * puts the + in front, so "43 650 1234567" is sent as +436501234567.
 */
export const internationalNumber: Rule = {
	hint: E164,
	toWire: (value, field) => {
		const clean = cleans(field.values);
		const number = clean ? `+${String(value).replace(FORMATTING, '')}` : String(value).trim();
		if (!/^\+[1-9][0-9]{5,14}$/.test(number))
			throw ruleBroken(field.name, clean ? `${E164} once formatting is removed` : E164, value);
		return number;
	},
};

/** The Options entry that turns cleaning off, for operations whose number field uses these rules. */
export const cleanPhoneNumber: ValueField = {
	property: {
		displayName: 'Clean Phone Number',
		name: 'cleanPhoneNumber',
		type: 'boolean',
		default: true,
		description:
			'Whether to remove +, spaces, dashes, dots, slashes and parentheses from the phone number before it is checked. Off: the number must already be in the form the API takes.',
	},
	rule: boolean(),
};

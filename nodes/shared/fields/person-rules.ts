import { ruleBroken } from './field-error';
import type { Rule } from './field-types';
import { check, date, text } from './rules';

/**
 * Rules of the fields that describe a person and where they live, shared by the address and
 * identity checks: country codes, postal codes and dates of birth.
 */

const COUNTRY_CODE = 'an ISO 3166-1 country code of 2 or 3 letters, such as AT or AUT';

/** ISO 3166-1 alpha-2 or alpha-3, sent in upper case. */
export const countryCode: Rule = text({
	normalize: (value) => value.trim().toUpperCase(),
	checks: [check.pattern(/^[A-Z]{2,3}$/, COUNTRY_CODE)],
});

/** Letters, digits, inner spaces and hyphens, as postal codes are written (1010, 30-392, SW1A 1AA). */
export const postalCode: Rule = text({
	normalize: (value) => value.trim(),
	checks: [
		check.pattern(
			/^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,10}[A-Za-z0-9])?$/,
			'a postal code of letters, digits, spaces and hyphens (at most 12 characters)',
		),
	],
});

const EARLIEST_BIRTH = '1900/01/01';
const BIRTH_DATE = `a date of birth as yyyy/mm/dd from ${EARLIEST_BIRTH} to today (yyyy-mm-dd, dd-mm-yyyy and dd.mm.yyyy are converted)`;

/**
 * A date of birth, sent as yyyy/mm/dd: also yyyy-mm-dd, an ISO date-time or an n8n date, and the
 * day-first dd-mm-yyyy or dd.mm.yyyy that forms and spreadsheets give. Never in the future, never
 * before 1900.
 */
export const birthDate: Rule = {
	hint: BIRTH_DATE,
	toWire: (value, field) => {
		const dayFirst =
			typeof value === 'string' ? /^(\d{2})([-.])(\d{2})\2(\d{4})$/.exec(value.trim()) : null;
		let slashed: string;
		try {
			slashed = date.toWire(
				dayFirst ? `${dayFirst[4]}-${dayFirst[3]}-${dayFirst[1]}` : value,
				field,
			) as string;
		} catch {
			throw ruleBroken(field.name, BIRTH_DATE, value);
		}
		const today = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
		if (slashed < EARLIEST_BIRTH || slashed > today)
			throw ruleBroken(field.name, BIRTH_DATE, value);
		return slashed;
	},
};

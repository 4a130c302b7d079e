import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { FieldError, ruleBroken } from './field-error';
import type { Rule, RuleInput } from './field-types';

/**
 * The rules a field's `rule` is made of. Each rule validates a value, converts it to what the API
 * expects, and names itself in one hint: the editor shows it under the field ("Must be <hint>.") and
 * the error quotes it. Limits that the property already states (minValue, maxValue, the options of a
 * list) are read from the property, so they are written once.
 */

/** One condition on a text, with the words that complete "must be ...". */
export interface TextCheck {
	hint: string;
	test: (value: string) => boolean;
}

function urlWith(protocols: string[]): (value: string) => boolean {
	return (value) => {
		try {
			const url = new URL(value);
			return protocols.includes(url.protocol) && url.hostname !== '';
		} catch {
			return false;
		}
	};
}

export const check = {
	pattern: (regex: RegExp, hint: string): TextCheck => ({ hint, test: (v) => regex.test(v) }),
	maxLength: (max: number): TextCheck => ({
		hint: `at most ${max} characters`,
		test: (v) => v.length <= max,
	}),
	email: {
		hint: 'a valid e-mail address',
		test: (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
	} as TextCheck,
	httpUrl: { hint: 'an http:// or https:// URL', test: urlWith(['http:', 'https:']) } as TextCheck,
	httpsUrl: { hint: 'an https:// URL', test: urlWith(['https:']) } as TextCheck,
	/** RFC 9110 token: the characters a header name may have. */
	headerName: {
		hint: "letters, digits and !#$%&'*+.^_`|~-",
		test: (v: string) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v),
	} as TextCheck,
};

/** A required text that is only blanks: said in the same words everywhere. */
export function refuseBlank(field: RuleInput, text: string): void {
	if (field.property.required && text.trim() === '') {
		throw new FieldError(field.name, `${field.name} is required and must not be blank`);
	}
}

/** A string; `normalize` runs before the checks (upper-casing a currency code, removing spaces). */
export function text(
	options: { normalize?: (value: string) => string; checks?: TextCheck[] } = {},
): Rule {
	const checks = options.checks ?? [];
	return {
		hint: checks.map((c) => c.hint).join(', ') || undefined,
		toWire: (value, field) => {
			if (typeof value !== 'string' && typeof value !== 'number')
				throw ruleBroken(field.name, 'text', value);
			const normalized = options.normalize ? options.normalize(String(value)) : String(value);
			refuseBlank(field, normalized);
			for (const c of checks) if (!c.test(normalized)) throw ruleBroken(field.name, c.hint, value);
			return normalized;
		},
	};
}

function limits(property: INodeProperties): { min?: number; max?: number } {
	const { minValue, maxValue } = (property.typeOptions ?? {}) as {
		minValue?: number;
		maxValue?: number;
	};
	return { min: minValue, max: maxValue };
}

function rangeHint(kind: string, property: INodeProperties): string {
	const { min, max } = limits(property);
	if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
	if (min !== undefined) return `${kind} of at least ${min}`;
	if (max !== undefined) return `${kind} of at most ${max}`;
	return kind;
}

function numberRule(kind: string, whole: boolean): Rule {
	const hint = (property: INodeProperties) => rangeHint(kind, property);
	return {
		hint,
		toWire: (value, field) => {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			const { min, max } = limits(field.property);
			const fits =
				typeof n === 'number' &&
				Number.isFinite(n) &&
				(!whole || Number.isInteger(n)) &&
				(min === undefined || n >= min) &&
				(max === undefined || n <= max);
			if (!fits) throw ruleBroken(field.name, hint(field.property), value);
			return n;
		},
	};
}

/** A whole number within the property's minValue and maxValue. */
export const integer: Rule = numberRule('a whole number', true);

/** A number (decimals allowed) within the property's minValue and maxValue. */
export const number: Rule = numberRule('a number', false);

/** true or false; `wire` gives the API's form, e.g. 0/1 for a flag the API takes as an integer. */
export function boolean(wire: (value: boolean) => unknown = (v) => v): Rule {
	return {
		toWire: (value, field) => {
			const b =
				value === true || value === 'true'
					? true
					: value === false || value === 'false'
						? false
						: undefined;
			if (b === undefined) throw ruleBroken(field.name, 'true or false', value);
			return wire(b);
		},
	};
}

function listed(property: INodeProperties): string[] {
	return (property.options ?? []).map((o) => String((o as { value?: unknown }).value));
}

/** One of the property's options; an expression must still produce one of the listed values. */
export const choice: Rule = {
	toWire: (value, field) => {
		const allowed = listed(field.property);
		if (!allowed.includes(String(value)))
			throw ruleBroken(field.name, `one of ${allowed.join(', ')}`, value);
		return String(value);
	},
};

/**
 * The one reader of a list typed as comma-separated text (the editor) or given as an array (an
 * expression): its entries trimmed, blank ones left out; none for any other value.
 */
export function listEntries(value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * A multi-select sent as an object with `true` for each chosen option of the property (the others
 * left out), or not at all when none is chosen. Accepts the chosen values as a list, as
 * comma-separated text from an expression, or as an object of booleans.
 */
export const flagSet: Rule = {
	toWire: (value, field) => {
		const members = listed(field.property);
		const broken = () => ruleBroken(field.name, `a selection of ${members.join(', ')}`, value);
		let chosen: string[];
		if (Array.isArray(value) || typeof value === 'string') chosen = listEntries(value);
		else if (value !== null && typeof value === 'object') {
			const entries = Object.entries(value as IDataObject);
			if (entries.some(([k, v]) => typeof v !== 'boolean' || !members.includes(k))) throw broken();
			chosen = entries.filter(([, v]) => v === true).map(([k]) => k);
		} else throw broken();
		if (chosen.some((c) => !members.includes(c))) throw broken();
		const sent = members.filter((m) => chosen.includes(m));
		return sent.length ? Object.fromEntries(sent.map((m) => [m, true])) : undefined;
	},
};

/** JSON text typed in the editor, parsed, or the value an expression gave; text that is no JSON breaks `rule`. */
export function parsedJson(value: unknown, field: string, rule: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw ruleBroken(field, rule, value);
	}
}

/** A JSON object, typed in the editor as JSON text or given as an object by an expression. */
export const jsonObject: Rule = {
	toWire: (value, field) => {
		const parsed = parsedJson(value, field.name, 'a JSON object');
		if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
			throw ruleBroken(field.name, 'a JSON object', value);
		return parsed;
	},
};

/** Several strings: a comma-separated text in the editor, or an array from an expression. */
export const textList: Rule = {
	toWire: (value, field) => {
		const list = listEntries(value);
		if (!list.length)
			throw ruleBroken(
				field.name,
				'at least one non-blank name (comma-separated or an array)',
				value,
			);
		return list;
	},
};

/** yyyy/mm/dd, an ISO date or date-time, or an n8n DateTime; sent as yyyy/mm/dd. */
export const date: Rule = {
	hint: 'a date as yyyy/mm/dd (an ISO date such as 1980-04-30 or an n8n date is converted)',
	toWire: (value, field) => {
		const formatted = toSlashDate(value);
		if (formatted === undefined)
			throw ruleBroken(field.name, 'a real date as yyyy/mm/dd (or an ISO date)', value);
		return formatted;
	},
};

/** A real calendar date from yyyy/mm/dd, an ISO date or date-time, a Date or an n8n DateTime. */
export function calendarDate(
	value: unknown,
): { year: number; month: number; day: number } | undefined {
	const iso = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:$|T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?$)/;
	let text: string | undefined;
	if (value instanceof Date) text = Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	else if (value !== null && typeof value === 'object' && 'toISO' in value)
		text = String((value as { toISO: () => string }).toISO());
	else if (typeof value === 'string') text = value.trim();
	const match = text === undefined ? null : iso.exec(text);
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const check = new Date(Date.UTC(year, month - 1, day));
	if (
		check.getUTCFullYear() !== year ||
		check.getUTCMonth() !== month - 1 ||
		check.getUTCDate() !== day
	)
		return undefined;
	return { year, month, day };
}

function toSlashDate(value: unknown): string | undefined {
	const date = calendarDate(value);
	if (!date) return undefined;
	return `${String(date.year).padStart(4, '0')}/${String(date.month).padStart(2, '0')}/${String(date.day).padStart(2, '0')}`;
}

/**
 * A decimal amount sent as a string: digits, optionally a dot and up to `maxDecimals` digits. Text
 * is sent as typed (trimmed); a number (from an expression) with exactly `maxDecimals` decimals, so 1
 * becomes "1.00", and is refused when it has more decimals than allowed.
 */
export function decimal(options: { maxDecimals: number; positive?: boolean }): Rule {
	const { maxDecimals, positive } = options;
	const pattern = new RegExp(`^\\d+(\\.\\d{1,${maxDecimals}})?$`);
	const example = `1${maxDecimals > 0 ? `.${'5'.padEnd(maxDecimals, '0')}` : ''}`;
	const hint = `${positive ? 'a number above 0' : 'a number'} with at most ${maxDecimals} decimals and a dot as decimal separator, such as ${example}`;
	return {
		hint,
		toWire: (value, field) => {
			let amount: string;
			if (typeof value === 'number') {
				const scaled = value * 10 ** maxDecimals;
				if (!Number.isFinite(value) || Math.abs(scaled - Math.round(scaled)) > 1e-6)
					throw ruleBroken(field.name, hint, value);
				amount = value.toFixed(maxDecimals);
			} else if (typeof value === 'string') {
				amount = value.trim();
				refuseBlank(field, amount);
			} else {
				throw ruleBroken(field.name, hint, value);
			}
			if (!pattern.test(amount) || (positive && Number(amount) <= 0))
				throw ruleBroken(field.name, hint, value);
			return amount;
		},
	};
}

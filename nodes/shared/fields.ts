import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FieldError, ruleBroken } from './field-error';
import type { FieldDefinition } from './operation-types';

/**
 * Builders for API fields. Each rule is written once here: its text feeds the field's hint in the UI
 * and the error message, and its check runs before any request is sent.
 */

interface Common {
	displayName: string;
	description?: string;
	placeholder?: string;
	required?: boolean;
	/** Optional fields go into the operation's "Additional Fields" collection. */
	additional?: boolean;
	location?: FieldDefinition['location'];
	/** Shown in the UI only when these other parameters have these values. */
	showWhen?: IDataObject;
}

function define(
	name: string,
	common: Common,
	property: Omit<FieldDefinition['property'], 'displayName' | 'description' | 'placeholder'>,
	toWire: (value: unknown) => unknown,
	ruleHint?: string,
): FieldDefinition {
	const description = [common.description, ruleHint && `Must be ${ruleHint}.`].filter(Boolean).join(' ');
	return {
		name,
		placement: common.additional ? 'additional' : 'top',
		location: common.location ?? 'body',
		required: common.required ?? false,
		showWhen: common.showWhen,
		property: {
			displayName: common.displayName,
			...(description ? { description } : {}),
			...(common.placeholder ? { placeholder: common.placeholder } : {}),
			...property,
		},
		toWire,
	} as FieldDefinition;
}

export interface TextRule {
	/** Completes "must be ...", e.g. "6 to 20 digits". */
	hint: string;
	test: (value: string) => boolean;
}

export const rule = {
	pattern: (regex: RegExp, hint: string): TextRule => ({ hint, test: (v) => regex.test(v) }),
	maxLength: (max: number): TextRule => ({ hint: `at most ${max} characters`, test: (v) => v.length <= max }),
	email: {
		hint: 'a valid e-mail address',
		test: (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
	} as TextRule,
	httpUrl: {
		hint: 'an http:// or https:// URL',
		test: (v: string) => {
			try {
				const url = new URL(v);
				return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
			} catch {
				return false;
			}
		},
	} as TextRule,
};

export interface TextOptions extends Common {
	rules?: TextRule[];
	/** Applied before the rules, e.g. upper-casing a currency code. */
	normalize?: (value: string) => string;
	default?: string;
}

/** A string field; required ones must not be blank. */
export function text(name: string, options: TextOptions): FieldDefinition {
	const rules = options.rules ?? [];
	return define(
		name,
		options,
		{ type: 'string', default: options.default ?? '' },
		(value) => {
			if (typeof value !== 'string' && typeof value !== 'number') throw ruleBroken(name, 'text', value);
			const normalized = options.normalize ? options.normalize(String(value)) : String(value);
			if (options.required && normalized.trim() === '') throw new FieldError(name, `${name} is required and must not be blank`);
			for (const r of rules) if (!r.test(normalized)) throw ruleBroken(name, r.hint, value);
			return normalized;
		},
		rules.map((r) => r.hint).join(', ') || undefined,
	);
}

export interface IntegerOptions extends Common {
	min?: number;
	max?: number;
	default?: number;
}

export function integer(name: string, options: IntegerOptions): FieldDefinition {
	const { min, max } = options;
	const hint =
		min !== undefined && max !== undefined
			? `a whole number from ${min} to ${max}`
			: min !== undefined
				? `a whole number of at least ${min}`
				: 'a whole number';
	return define(
		name,
		options,
		{
			type: 'number',
			default: options.default ?? min ?? 0,
			typeOptions: { ...(min !== undefined ? { minValue: min } : {}), ...(max !== undefined ? { maxValue: max } : {}) },
		},
		(value) => {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || !Number.isInteger(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
				throw ruleBroken(name, hint, value);
			}
			return n;
		},
		hint,
	);
}

export interface BooleanOptions extends Common {
	default?: boolean;
	/** The wire form, e.g. 0/1 for a flag the API takes as an integer. */
	wire?: (value: boolean) => unknown;
}

export function boolean(name: string, options: BooleanOptions): FieldDefinition {
	return define(name, options, { type: 'boolean', default: options.default ?? false }, (value) => {
		const b = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
		if (b === undefined) throw ruleBroken(name, 'true or false', value);
		return options.wire ? options.wire(b) : b;
	});
}

export interface ChoiceOptions extends Common {
	options: INodePropertyOptions[];
	default?: string;
}

/** One value out of a fixed list; expressions must still produce one of the listed values. */
export function choice(name: string, options: ChoiceOptions): FieldDefinition {
	const allowed = options.options.map((o) => String(o.value));
	const hint = `one of ${allowed.join(', ')}`;
	return define(
		name,
		options,
		{ type: 'options', options: options.options, default: options.default ?? allowed[0] },
		(value) => {
			if (!allowed.includes(String(value))) throw ruleBroken(name, hint, value);
			return String(value);
		},
	);
}

export interface JsonOptions extends Common {
	default?: string;
}

/** A JSON object, typed in the UI as JSON text or given as an object by an expression. */
export function jsonObject(name: string, options: JsonOptions): FieldDefinition {
	return define(name, options, { type: 'json', default: options.default ?? '{}' }, (value) => {
		let parsed = value;
		if (typeof value === 'string') {
			try {
				parsed = JSON.parse(value);
			} catch {
				throw ruleBroken(name, 'a JSON object', value);
			}
		}
		if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw ruleBroken(name, 'a JSON object', value);
		return parsed;
	});
}

const DATE_HINT = 'a date as yyyy/mm/dd (an ISO date such as 1980-04-30 or an n8n date is converted)';

/** Accepts yyyy/mm/dd, an ISO date or date-time, or an n8n DateTime; sends yyyy/mm/dd. */
export function date(name: string, options: Common): FieldDefinition {
	return define(
		name,
		options,
		{ type: 'string', default: '' },
		(value) => {
			const formatted = toSlashDate(value);
			if (formatted === undefined) throw ruleBroken(name, 'a real date as yyyy/mm/dd (or an ISO date)', value);
			return formatted;
		},
		DATE_HINT,
	);
}

function toSlashDate(value: unknown): string | undefined {
	let y: number, m: number, d: number;
	const iso = (v: string) => /^(\d{4})[-/](\d{2})[-/](\d{2})(?:$|T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?$)/.exec(v.trim());
	if (value instanceof Date || (value !== null && typeof value === 'object' && 'toISO' in value)) {
		const text = value instanceof Date ? value.toISOString() : String((value as { toISO: () => string }).toISO());
		const match = iso(text);
		if (!match) return undefined;
		[y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
	} else if (typeof value === 'string') {
		const match = iso(value);
		if (!match) return undefined;
		[y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
	} else {
		return undefined;
	}
	const check = new Date(Date.UTC(y, m - 1, d));
	if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
	return `${String(y).padStart(4, '0')}/${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}`;
}

/** A UI-only field read by the operation itself (never sent as is), e.g. the binary property name. */
export function parameter(
	name: string,
	options: Common,
	property: Omit<INodeProperties, 'name' | 'displayName' | 'description' | 'placeholder' | 'displayOptions'>,
	toWire: (value: unknown) => unknown = (v) => v,
): FieldDefinition {
	return define(name, { ...options, location: 'none' }, property, toWire);
}

/** Several strings: a comma-separated text in the UI, or an array from an expression. */
export function textList(name: string, options: Common): FieldDefinition {
	return define(name, options, { type: 'string', default: '' }, (value) => {
		const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : undefined;
		const list = (parts ?? []).map((p) => p.trim()).filter((p) => p !== '');
		if (!list.length) throw ruleBroken(name, 'at least one non-blank name (comma-separated or an array)', value);
		return list;
	});
}

import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { FieldError, ruleBroken } from './field-error';
import { parameter } from './fields';
import type { FieldDefinition } from './operation-types';

/**
 * Field builders beside fields.ts (added with the KYB, Payments and Phone nodes). Same contract:
 * the rule is written once, its text feeds the UI hint and the error, and it runs before any request.
 */

/**
 * Shows a validated text field as a dropdown whose entries a `loadOptions` method of the node loads
 * (live from the API, or a static list such as currencies). The value may still come from an
 * expression: n8n does not check a loaded dropdown's value against the list, the field's rules do.
 */
export function withLoadedOptions(field: FieldDefinition, loadOptionsMethod: string): FieldDefinition {
	return {
		...field,
		property: {
			...field.property,
			type: 'options',
			typeOptions: { ...field.property.typeOptions, loadOptionsMethod },
		},
	};
}

export interface FlagSetOptions {
	displayName: string;
	description?: string;
	/** The members of the wire object, in the order they are sent (the UI lists them alphabetically). */
	options: INodePropertyOptions[];
	additional?: boolean;
	showWhen?: IDataObject;
}

/**
 * A multi-select sent as an object with one boolean per listed member (every member present, the
 * chosen ones true). Accepts the chosen names as a list, as comma-separated text from an expression,
 * or an object of booleans.
 */
export function flagSet(name: string, options: FlagSetOptions): FieldDefinition {
	const members = options.options.map((o) => String(o.value));
	const hint = `a selection of ${[...members].sort().join(', ')}`;
	const field = parameter(
		name,
		{ displayName: options.displayName, description: options.description, additional: options.additional, showWhen: options.showWhen },
		{ type: 'multiOptions', options: [...options.options].sort((a, b) => a.name.localeCompare(b.name)), default: [] },
		(value) => {
			let chosen: string[];
			if (Array.isArray(value)) chosen = value.map((v) => String(v).trim());
			else if (typeof value === 'string') chosen = value.split(',').map((v) => v.trim());
			else if (value !== null && typeof value === 'object') {
				const entries = Object.entries(value as IDataObject);
				if (entries.some(([, v]) => typeof v !== 'boolean')) throw ruleBroken(name, hint, value);
				chosen = entries.filter(([, v]) => v === true).map(([k]) => k);
				if (entries.some(([k]) => !members.includes(k))) throw ruleBroken(name, hint, value);
			} else throw ruleBroken(name, hint, value);
			chosen = chosen.filter((c) => c !== '');
			const unknown = chosen.filter((c) => !members.includes(c));
			if (unknown.length) throw ruleBroken(name, hint, value);
			return Object.fromEntries(members.map((m) => [m, chosen.includes(m)]));
		},
	);
	return { ...field, location: 'body' };
}

export interface DecimalOptions {
	displayName: string;
	description?: string;
	placeholder?: string;
	required?: boolean;
	additional?: boolean;
	/** Digits allowed after the dot. */
	maxDecimals: number;
	/** Reject 0 (an amount that must move something). */
	positive?: boolean;
}

/**
 * A decimal amount sent as a string: digits, optionally a dot and up to `maxDecimals` digits. Text is
 * sent as typed (trimmed); a number (from an expression) is sent with exactly `maxDecimals` decimals,
 * so 1 becomes "1.00" and 1.5 becomes "1.50", and is refused when it has more decimals than allowed.
 */
export function decimalText(name: string, options: DecimalOptions): FieldDefinition {
	const { maxDecimals } = options;
	const pattern = new RegExp(`^\\d+(\\.\\d{1,${maxDecimals}})?$`);
	const example = `1${maxDecimals > 0 ? `.${'5'.padEnd(maxDecimals, '0')}` : ''}`;
	const hint = `${options.positive ? 'a number above 0' : 'a number'} with at most ${maxDecimals} decimals and a dot as decimal separator, such as ${example}`;
	const numberNote = `A number from an expression is sent with ${maxDecimals} decimals (1 becomes "${(1).toFixed(maxDecimals)}").`;
	const description = [options.description, `Must be ${hint}.`, numberNote].filter(Boolean).join(' ');
	const field = parameter(
		name,
		{ displayName: options.displayName, description, placeholder: options.placeholder, additional: options.additional },
		{ type: 'string', default: '' },
		(value) => {
			let text: string;
			if (typeof value === 'number') {
				const scaled = value * 10 ** maxDecimals;
				if (!Number.isFinite(value) || Math.abs(scaled - Math.round(scaled)) > 1e-6) throw ruleBroken(name, hint, value);
				text = value.toFixed(maxDecimals);
			} else if (typeof value === 'string') {
				text = value.trim();
				if (options.required && text === '') throw new FieldError(name, `${name} is required and must not be blank`);
			} else {
				throw ruleBroken(name, hint, value);
			}
			if (!pattern.test(text)) throw ruleBroken(name, hint, value);
			if (options.positive && Number(text) <= 0) throw ruleBroken(name, hint, value);
			return text;
		},
	);
	return { ...field, location: 'body', required: options.required ?? false };
}

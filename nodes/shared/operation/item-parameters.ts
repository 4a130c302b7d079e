import type { IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { isObject } from '../responses/json';

/** Keys n8n's expression sandbox refuses: never read past them here either. */
const GUARDED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `{{ $json.a.b }}` or `{{ $json["a b"] }}`, nothing else around it: the whole value is one item field. */
const JSON_FIELD = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\]*"|'[^'\\]*')\])+)\s*\}\}$/;
const SEGMENT = /\.([A-Za-z_$][\w$]*)|\[(?:"([^"\\]*)"|'([^'\\]*)')\]/g;

function containsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpression);
	if (isObject(value)) return Object.values(value).some(containsExpression);
	return false;
}

/** The keys of a `$json` mapping, or undefined when the value is any other expression. */
export function jsonFieldPath(raw: unknown): string[] | undefined {
	const match = typeof raw === 'string' ? JSON_FIELD.exec(raw) : null;
	if (!match) return undefined;
	const keys = [...match[1].matchAll(SEGMENT)].map((m) => m[1] ?? m[2] ?? m[3]);
	return keys.some((key) => GUARDED_KEYS.has(key)) ? undefined : keys;
}

/** The item's text, number or boolean at `keys` (own members of plain objects only), else undefined. */
function primitiveAt(json: unknown, keys: string[]): string | number | boolean | undefined {
	let value = json;
	for (const key of keys) {
		if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
		value = value[key];
	}
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
		? value
		: undefined;
}

/**
 * Reads the node's parameters for every item of one run. n8n evaluates each expression in its
 * expression engine (n8n 2.x: an isolate), which is most of the time spent checking the items before
 * the first request. Two cases need no evaluation per item:
 *
 * - A parameter without any expression (a literal, or a collection of literals) has the same value
 *   for every item: n8n reads it once, for the first item that asks.
 * - `{{ $json.field }}`, the mapping n8n's editor writes when a field is dragged in, is the input
 *   item's own field: when that is a text, a number or a boolean it is read from the item, where n8n
 *   reads `$json` too. The first item read this way is also evaluated by n8n and compared; should
 *   they ever differ, n8n evaluates that parameter for every item of the run.
 *
 * Anything else (other expressions, a mapping to an object, a list or a missing field) is evaluated
 * by n8n for every item, as `getNodeParameter` would.
 */
export class ItemParameters {
	private readonly raw: INodeParameters;
	private readonly items: INodeExecutionData[];
	/** Values of parameters without expressions, read once. */
	private readonly constants = new Map<string, unknown>();
	/** The `$json` keys of mapped parameters; null: evaluated by n8n for every item. */
	private readonly mappings = new Map<string, string[] | null>();
	/** Mapped parameters whose first read n8n has confirmed. */
	private readonly confirmed = new Set<string>();

	constructor(private readonly ctx: IExecuteFunctions) {
		this.raw = ctx.getNode().parameters;
		this.items = ctx.getInputData();
	}

	/** The parameter's value for this item, as `ctx.getNodeParameter(name, itemIndex, fallback)` returns it. */
	get(name: string, itemIndex: number, fallback?: unknown): unknown {
		if (this.constants.has(name)) return this.constants.get(name);
		const raw = this.raw[name];
		if (raw !== undefined && !containsExpression(raw)) {
			const value = this.evaluate(name, itemIndex, fallback);
			this.constants.set(name, value);
			return value;
		}
		let keys = this.mappings.get(name);
		if (keys === undefined) {
			keys = jsonFieldPath(raw) ?? null;
			this.mappings.set(name, keys);
		}
		const mapped = keys ? primitiveAt(this.items[itemIndex]?.json, keys) : undefined;
		if (mapped === undefined) return this.evaluate(name, itemIndex, fallback);
		if (this.confirmed.has(name)) return mapped;
		const evaluated = this.evaluate(name, itemIndex, fallback);
		if (Object.is(mapped, evaluated)) this.confirmed.add(name);
		else this.mappings.set(name, null);
		return evaluated;
	}

	private evaluate(name: string, itemIndex: number, fallback: unknown): unknown {
		return this.ctx.getNodeParameter(name, itemIndex, fallback);
	}
}

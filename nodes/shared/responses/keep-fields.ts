import type { IDataObject } from 'n8n-workflow';

import { isObject } from './json';

/** What an answer says went wrong or warns about: kept whatever fields are chosen. */
const ALWAYS_KEPT = ['error', 'errors', 'warning', 'warnings'];

/**
 * The answer with only the fields at these dotted paths, each at the same place as in the whole
 * answer, so that an expression written against the whole answer reads the same value here. A path
 * through a list picks from each of its entries (`officers.name`); a path that is not there is left
 * out. Errors and warnings, at the top and inside the API's `data` envelope, are always kept.
 */
export function keepFields(json: IDataObject, paths: string[]): IDataObject {
	const wanted = [...paths, ...ALWAYS_KEPT, ...ALWAYS_KEPT.map((key) => `data.${key}`)];
	let kept: IDataObject = {};
	for (const path of wanted) {
		const keys = path.split('.').filter(Boolean);
		if (!keys.length) continue;
		const picked = pickPath(json, keys);
		if (picked !== undefined) kept = merge(kept, picked) as IDataObject;
	}
	return kept;
}

/** The value at `keys` wrapped in the objects (and lists) that lead to it; undefined when absent. */
function pickPath(value: unknown, keys: string[]): unknown {
	if (!keys.length) return value;
	if (Array.isArray(value)) {
		const entries = value.map((entry) => pickPath(entry, keys));
		return entries.some((entry) => entry !== undefined) ? entries.map((e) => e ?? {}) : undefined;
	}
	if (!isObject(value) || !(keys[0] in value)) return undefined;
	const inner = pickPath(value[keys[0]], keys.slice(1));
	return inner === undefined ? undefined : { [keys[0]]: inner };
}

/** Two picks of the same answer merged: objects key by key, lists entry by entry. */
function merge(a: unknown, b: unknown): unknown {
	if (Array.isArray(a) && Array.isArray(b)) return b.map((entry, i) => merge(a[i], entry));
	if (isObject(a) && isObject(b)) {
		const merged: IDataObject = { ...a };
		for (const [key, value] of Object.entries(b))
			merged[key] = key in a ? (merge(a[key], value) as IDataObject[string]) : value;
		return merged;
	}
	return b;
}

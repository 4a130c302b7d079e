import type { IDataObject } from 'n8n-workflow';

/** Short views of an answer for summaries (an AI tool's, an operation's conveniences). */

/** The named members of `source` that hold something (no undefined, null, '' or []), in that order. */
export function pick(source: unknown, keys: string[]): IDataObject {
	if (source === null || typeof source !== 'object') return {};
	const record = source as IDataObject;
	const picked: IDataObject = {};
	for (const key of keys) {
		const value = record[key];
		if (
			value === undefined ||
			value === null ||
			value === '' ||
			(Array.isArray(value) && value.length === 0)
		)
			continue;
		picked[key] = value;
	}
	return picked;
}

/** At most `limit` entries of a list, each reduced by `map`, and how many were left out. */
export function firstOf(
	list: unknown,
	limit: number,
	map: (entry: unknown) => IDataObject,
): { listed: IDataObject[]; more: number } {
	const entries = Array.isArray(list) ? list : [];
	return { listed: entries.slice(0, limit).map(map), more: Math.max(0, entries.length - limit) };
}

import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/responses/json';

/** A list element as an item's json: objects as they are, anything else under `value`. */
export function elementJson(element: unknown): IDataObject {
	return isObject(element) ? { ...element } : { value: element as IDataObject[string] };
}

export interface FoundList {
	list: unknown[];
	/** The response with the list taken out (an emptied `data` wrapper is left out too). */
	rest: IDataObject;
}

/**
 * Finds a list in a response that may or may not wrap it in `data` (API generations differ): the first
 * of `data.<key>` for each key, `data` itself when it is an array, then `<key>` at the top level.
 */
export function findList(body: IDataObject, keys: string[]): FoundList | undefined {
	const data = body.data;
	if (Array.isArray(data)) return { list: data, rest: without(body, 'data') };
	if (isObject(data)) {
		for (const key of keys) {
			if (Array.isArray(data[key])) {
				const dataRest = without(data, key);
				const rest = without(body, 'data');
				return {
					list: data[key] as unknown[],
					rest: Object.keys(dataRest).length ? { ...rest, data: dataRest } : rest,
				};
			}
		}
	}
	for (const key of keys) {
		if (Array.isArray(body[key])) return { list: body[key] as unknown[], rest: without(body, key) };
	}
	return undefined;
}

/** A shallow copy of `object` without `key` (n8n's default lint config flags unused rest siblings). */
function without(object: IDataObject, key: string): IDataObject {
	const copy = { ...object };
	delete copy[key];
	return copy;
}

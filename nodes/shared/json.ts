import type { IDataObject } from 'n8n-workflow';

import type { ResponsePath } from './operation-types';

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** True when a value is there: not undefined, null or ''. */
export function present(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** The value at a dotted path (`data.referenceId`); with a list of paths, the first one present. */
export function valueAt(body: unknown, path: ResponsePath): unknown {
	for (const candidate of Array.isArray(path) ? path : [path]) {
		let value = body;
		for (const key of candidate.split('.')) value = isObject(value) ? value[key] : undefined;
		if (present(value)) return value;
	}
	return undefined;
}

/** The response body as an item's json; an empty answer (documented as "200, no body") says so. */
export function responseJson(body: unknown): IDataObject {
	if (isObject(body)) return body;
	if (Array.isArray(body)) return { data: body } as IDataObject;
	if (typeof body === 'string' && body.trim() !== '') return { response: body };
	return { success: true };
}

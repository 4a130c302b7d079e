import type { IDataObject } from 'n8n-workflow';

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** True when a value is there: not undefined, null or ''. */
export function present(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** The response body as an item's json; an empty answer (documented as "200, no body") says so. */
export function responseJson(body: unknown): IDataObject {
	if (isObject(body)) return body;
	if (Array.isArray(body)) return { data: body } as IDataObject;
	if (typeof body === 'string' && body.trim() !== '') return { response: body };
	return { success: true };
}

import type { IDataObject } from 'n8n-workflow';

import { isObject } from './json';

/** The response body as an item's json; an empty answer (documented as "200, no body") says so. */
export function responseJson(body: unknown): IDataObject {
	if (isObject(body)) return body;
	if (Array.isArray(body)) return { data: body } as IDataObject;
	if (typeof body === 'string' && body.trim() !== '') return { response: body };
	return { success: true };
}

import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/responses/json';

/**
 * The ping payload is undocumented, so its fields are looked for where the API's other bodies put
 * them: at the top level, or inside a `data` wrapper.
 */
function layers(body: unknown): IDataObject[] {
	if (!isObject(body)) return [];
	return isObject(body.data) ? [body, body.data] : [body];
}

function idValue(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** The session a ping is about: sessionId, then requestId, then id; each at the top level before data. */
export function pingSessionId(body: unknown): string | undefined {
	const found = layers(body);
	for (const field of ['sessionId', 'requestId', 'id']) {
		for (const layer of found) {
			const value = idValue(layer[field]);
			if (value !== undefined) return value;
		}
	}
	return undefined;
}

/** The status named by a body: a string `status`, else a string `data.status` (the envelope's `status` may be a boolean). */
export function bodyStatus(body: unknown): string | undefined {
	for (const layer of layers(body)) {
		if (typeof layer.status === 'string' && layer.status.trim() !== '') return layer.status.trim();
	}
	return undefined;
}

/** Whether a status passes the Only Statuses filter (lower-cased list; empty list lets everything pass). */
export function statusAllowed(status: string | undefined, allowed: string[]): boolean {
	if (allowed.length === 0) return true;
	return status !== undefined && allowed.includes(status.toLowerCase());
}

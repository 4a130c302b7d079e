import type { IDataObject } from 'n8n-workflow';

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

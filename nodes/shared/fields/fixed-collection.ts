import type { IDataObject } from 'n8n-workflow';

import { FieldError, quote } from './field-error';

/**
 * The entries of a fixed collection with several values (`{ <group>: [...] }` as the editor stores
 * it), or of an array an expression gives; none when the collection is empty.
 */
export function entriesOf(name: string, value: unknown, group: string): IDataObject[] {
	if (Array.isArray(value)) return value as IDataObject[];
	if (value === null || typeof value !== 'object')
		throw new FieldError(name, `${name} must be a list of entries, got ${quote(value)}`);
	const entries = (value as IDataObject)[group];
	if (entries === undefined || entries === null) return [];
	if (!Array.isArray(entries))
		throw new FieldError(name, `${name} must be a list of entries, got ${quote(entries)}`);
	return entries as IDataObject[];
}

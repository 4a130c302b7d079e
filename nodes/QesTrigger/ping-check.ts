import { timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Whether the header value equals the registered secret, compared in constant time. A missing value,
 * a repeated header (array) or a value of another length never matches.
 */
export function secretMatches(received: unknown, expected: string): boolean {
	if (typeof received !== 'string' || received === '' || expected === '') return false;
	const given = Buffer.from(received, 'utf8');
	const wanted = Buffer.from(expected, 'utf8');
	if (given.length !== wanted.length) return false;
	return timingSafeEqual(given, wanted);
}

/** A header's value, whatever the case of its name (Node lower-cases incoming header names). */
export function headerValue(headers: IDataObject, name: string): unknown {
	const wanted = name.toLowerCase();
	if (wanted in headers) return headers[wanted];
	const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
	return key === undefined ? undefined : headers[key];
}

/** A copy of the headers without the named ones (case-insensitive): the secret never reaches the output. */
export function withoutHeaders(headers: IDataObject, names: string[]): IDataObject {
	const drop = new Set(names.map((n) => n.toLowerCase()));
	return Object.fromEntries(Object.entries(headers).filter(([key]) => !drop.has(key.toLowerCase())));
}

import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** SHA-256 of a secret (UTF-8) as 64 lower-case hex chars: what static data keeps instead of the secret. */
export function secretSha256(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Whether the header value is the registered secret, given the SHA-256 (hex) stored at registration:
 * the value is hashed and the two 32-byte digests are compared in constant time (equal length by
 * construction). A missing or empty value, a repeated header (array) or a malformed digest never matches.
 */
export function secretMatches(received: unknown, expectedSha256: string): boolean {
	if (typeof received !== 'string' || received === '') return false;
	if (!/^[0-9a-f]{64}$/i.test(expectedSha256)) return false;
	const given = createHash('sha256').update(received, 'utf8').digest();
	const wanted = Buffer.from(expectedSha256, 'hex');
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
	return Object.fromEntries(
		Object.entries(headers).filter(([key]) => !drop.has(key.toLowerCase())),
	);
}

import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** Name of the header that carries the provider's signature (Node lower-cases incoming header names). */
export const SIGNATURE_HEADER = 'signature';

/** 32 bytes as hex, either case: what an HMAC-SHA256 written as hex looks like, and nothing else. */
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * The Signature header as received. Node joins a repeated header into one value ("a, b"), which
 * then matches no digest; an array (a runtime that keeps repeats apart) is none.
 */
export function signatureOf(headers: IDataObject): string | undefined {
	const value = headers[SIGNATURE_HEADER];
	return typeof value === 'string' ? value : undefined;
}

/**
 * Whether `signature` is the HMAC-SHA256 of exactly these body bytes with `secret` (UTF-8), written
 * as 64 hex characters, upper or lower case. Anything else never matches: a missing or empty value,
 * another length, a prefix such as "sha256=", inner spaces, another algorithm's digest, an empty
 * secret. The two 32-byte digests are compared in constant time (equal length by construction).
 */
export function signatureMatches(
	rawBody: Buffer,
	signature: string | undefined,
	secret: string,
): boolean {
	if (signature === undefined || !SHA256_HEX.test(signature) || secret === '') return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}

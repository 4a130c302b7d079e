import { createHash } from 'crypto';

/**
 * One access token per credential (base URL + API key + customer id), shared by every node run and
 * by the credential's own preAuthentication in this n8n process.
 *
 * n8n fires the requests of all items at once and calls preAuthentication for each of them; without
 * this cache 200 items meant 200 POST /auth calls. Here concurrent callers share one in-flight
 * exchange, and a token is replaced shortly before it expires so expiry costs no failed request.
 */

export interface IssuedToken {
	token: string;
	expiresAtMs: number;
	lifetimeMs: number;
}

interface Entry {
	current?: IssuedToken;
	inFlight?: Promise<IssuedToken>;
}

const entries = new Map<string, Entry>();

/** Keys the cache by a hash, so the map never holds the secrets themselves. */
export function tokenCacheKey(baseUrl: string, apiKey: string, customerId: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}\n${customerId}`).digest('hex');
}

/** Time before expiry at which a token stops being handed out: 60 s, or a tenth of a short lifetime. */
function refreshMarginMs(token: IssuedToken): number {
	return Math.min(60_000, token.lifetimeMs / 10);
}

export function isFresh(token: IssuedToken | undefined, now = Date.now()): token is IssuedToken {
	return token !== undefined && token.expiresAtMs - refreshMarginMs(token) > now;
}

/** The cached token if it is still fresh. */
export function peekToken(key: string): string | undefined {
	const current = entries.get(key)?.current;
	return isFresh(current) ? current.token : undefined;
}

/**
 * Adopts a token obtained elsewhere (the one n8n stored with the credential) when none is cached.
 * A cached token always wins: the stored one may be a token the API has since refused.
 */
export function rememberToken(key: string, token: IssuedToken): void {
	const entry = entries.get(key) ?? {};
	if (!isFresh(entry.current) && !entry.inFlight) entry.current = token;
	entries.set(key, entry);
}

/**
 * A fresh token: the cached one, the exchange already under way, or a new exchange.
 * `rejected` is a token the API has just refused; it is never handed out again.
 */
export async function obtainToken(
	key: string,
	exchange: () => Promise<IssuedToken>,
	rejected?: string,
): Promise<string> {
	const entry = entries.get(key) ?? {};
	entries.set(key, entry);
	if (rejected !== undefined && entry.current?.token === rejected) entry.current = undefined;
	if (isFresh(entry.current)) return entry.current.token;
	if (!entry.inFlight) {
		entry.inFlight = exchange()
			.then((issued) => {
				entry.current = issued;
				return issued;
			})
			.finally(() => {
				entry.inFlight = undefined;
			});
	}
	return (await entry.inFlight).token;
}

/** Reads `exp` and `iat` (seconds) from a JWT without verifying it; empty when it is not a JWT. */
export function jwtTimes(token: string): { expiresAtMs?: number; issuedAtMs?: number } {
	try {
		const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
			exp?: unknown;
			iat?: unknown;
		};
		return {
			expiresAtMs: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined,
			issuedAtMs: typeof claims.iat === 'number' ? claims.iat * 1000 : undefined,
		};
	} catch {
		return {};
	}
}

/** For tests: forget every token. */
export function clearTokenCache(): void {
	entries.clear();
}

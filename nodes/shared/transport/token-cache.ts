import { createHash } from 'crypto';

import { LruMemory, type MemoryLimits } from './lru-memory';
import {
	type ExchangeOptions,
	exchangeToken,
	type HttpRequest,
	type IssuedToken,
	TokenExchangeError,
} from './token-exchange';
import type { ApiCredentials } from './credential-values';
import { unlessCancelled } from './wait';

/**
 * The request path's access tokens: one per credential (base URL, API key, customer id) and n8n
 * process, shared by every execution. The request path is their only user: it takes a token for
 * each request after the pacer admitted it, so a long pause never sends a stale one.
 *
 * - Concurrent callers share one exchange; a token is replaced shortly before it expires, so expiry
 *   costs no failed request; a token the API refused (401) is never handed out again.
 * - A refused key is remembered for a short while: 1,000 items against a wrong key make one exchange
 *   and all get its answer, instead of one exchange per wave of concurrent items. The key is part of
 *   the cache key, so a corrected key is exchanged at once.
 * - Bounded (TOKEN_MEMORY): an expired token is not kept, a credential unused for 10 minutes is
 *   forgotten, at most 1,000 credentials are remembered (the least recently used go first); an
 *   exchange under way is never dropped.
 */

/** How long a refused key (401/403 from /auth) is answered from memory. */
export const REFUSAL_MEMORY_MS = 30_000;

/** An exchange under way, with the number of callers waiting for it. */
interface Pending {
	promise: Promise<IssuedToken>;
	waiters: number;
	abort: AbortController;
}

interface Entry {
	current?: IssuedToken;
	pending?: Pending;
	refused?: { error: TokenExchangeError; untilMs: number };
}

export const TOKEN_MEMORY: MemoryLimits = { maxEntries: 1_000, idleMs: 10 * 60_000 };

/** Holds nothing worth keeping: no token still valid and no refusal still remembered. */
function spent(entry: Entry, nowMs: number): boolean {
	return (
		!(entry.current && entry.current.expiresAtMs > nowMs) &&
		!(entry.refused && entry.refused.untilMs > nowMs)
	);
}

const entries = new LruMemory<Entry>(TOKEN_MEMORY, (entry) => entry.pending !== undefined, spent);

/** Keys the cache by a hash, so the map never holds the secrets themselves. */
export function credentialKey(credentials: ApiCredentials): string {
	return createHash('sha256')
		.update(`${credentials.baseUrl}\n${credentials.apiKey}\n${credentials.customerId}`)
		.digest('hex');
}

/** Time before expiry at which a token stops being handed out: 60 s, or a tenth of a short lifetime. */
function refreshMarginMs(token: IssuedToken): number {
	return Math.min(60_000, token.lifetimeMs / 10);
}

export function isFresh(token: IssuedToken | undefined, now = Date.now()): token is IssuedToken {
	return token !== undefined && token.expiresAtMs - refreshMarginMs(token) > now;
}

/**
 * A fresh token for these credentials: the cached one, the exchange already under way, or a new
 * exchange (with `timeoutMs` and `maxRetries`). `rejected` is a token the API has just refused. A
 * cancelled caller stops waiting at once; when nobody waits any more, the exchange is aborted too.
 */
export async function tokenFor(
	httpRequest: HttpRequest,
	credentials: ApiCredentials,
	options: ExchangeOptions & { key?: string; rejected?: string; signal?: AbortSignal },
): Promise<string> {
	const key = options.key ?? credentialKey(credentials);
	const entry = entries.obtain(key, () => ({}));
	if (options.rejected !== undefined && entry.current?.token === options.rejected)
		entry.current = undefined;
	if (isFresh(entry.current)) return entry.current.token;
	if (entry.refused && entry.refused.untilMs > Date.now()) throw entry.refused.error;
	const pending = (entry.pending ??= exchange(entry, httpRequest, credentials, {
		timeoutMs: options.timeoutMs,
		maxRetries: options.maxRetries,
	}));
	pending.waiters++;
	try {
		return (await unlessCancelled(pending.promise, options.signal)).token;
	} finally {
		pending.waiters--;
		if (pending.waiters === 0 && options.signal?.aborted && entry.pending === pending) {
			entry.pending = undefined;
			pending.abort.abort();
		}
	}
}

function exchange(
	entry: Entry,
	httpRequest: HttpRequest,
	credentials: ApiCredentials,
	options: ExchangeOptions,
): Pending {
	const abort = new AbortController();
	const promise: Promise<IssuedToken> = exchangeToken(httpRequest, credentials, {
		...options,
		signal: abort.signal,
	})
		.then((issued) => {
			entry.current = issued;
			entry.refused = undefined;
			return issued;
		})
		.catch((error: unknown) => {
			if (error instanceof TokenExchangeError && error.reason === 'rejected') {
				entry.refused = { error, untilMs: Date.now() + REFUSAL_MEMORY_MS };
			}
			throw error;
		})
		.finally(() => {
			if (entry.pending?.promise === promise) entry.pending = undefined;
		});
	return { promise, waiters: 0, abort };
}

/**
 * The token this cache holds for these credentials' account while it has not expired, without an
 * exchange: what the credential's `authenticate` sends, so that it never sends another account's.
 */
export function heldToken(credentials: ApiCredentials, nowMs = Date.now()): string | undefined {
	const current = entries.get(credentialKey(credentials), nowMs)?.current;
	return current && current.expiresAtMs > nowMs ? current.token : undefined;
}

/** For tests: forget every token and every refusal. */
export function clearTokenCache(): void {
	entries.clear();
}

/** For tests: how many credentials the cache remembers. */
export function tokenCacheSize(): number {
	return entries.size;
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import type { ApiCredentials } from '../../nodes/shared/transport/credential-values';
import { pacerCount, pacerFor, resetPacers } from '../../nodes/shared/transport/pacing';
import { clearTokenCache, isFresh, TOKEN_MEMORY, tokenCacheSize, tokenFor } from '../../nodes/shared/transport/token-cache';
import type { HttpRequest } from '../../nodes/shared/transport/token-exchange';
import { cachedSecret, cachedSecretCount, forgetSecrets, SECRET_TTL_MS } from '../../nodes/VerificationServicesTrigger/signedResult/secret-cache';

/**
 * The token cache, and what an n8n process keeps per credential version (a changed key or URL is a new
 * one) is bounded: without bounds, a long-running process that sees many credential versions keeps every
 * one, each with its last token.
 */

const VERSIONS = 10_000;
const options = { timeoutMs: 1000, maxRetries: 0 };
const version = (n: number): ApiCredentials => ({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9/api', apiKey: `key-${n}`, customerId: 'customer', accessToken: '' });

/**
 * A POST /auth that answers the n-th exchange with `answer(n, headers)` (by default the token
 * `token-of-<key>` valid `lifetimeSeconds`), after a turn of the event loop, counting the exchanges.
 */
function authServer(lifetimeSeconds = 3600, answer?: (n: number, headers: Record<string, string>) => { statusCode: number; body: object }) {
	const exchanges = new Map<string, number>();
	let total = 0;
	const httpRequest: HttpRequest = async (request) => {
		const headers = request.headers as Record<string, string>;
		exchanges.set(headers['Api-Key'], (exchanges.get(headers['Api-Key']) ?? 0) + 1);
		await new Promise((r) => setImmediate(r));
		const { statusCode, body } = answer?.(++total, headers) ?? { statusCode: 200, body: { access_token: `token-of-${headers['Api-Key']}`, expires_in: lifetimeSeconds } };
		return { statusCode, headers: {}, body: JSON.stringify(body) };
	};
	return { httpRequest, exchangesOf: (n: number) => exchanges.get(`key-${n}`) ?? 0, exchanges: () => total };
}

let clock = 1_700_000_000_000;
const advance = (ms: number) => (clock += ms);

beforeEach(() => {
	clock = 1_700_000_000_000;
	jest.spyOn(Date, 'now').mockImplementation(() => clock);
	clearTokenCache();
	resetPacers();
	forgetSecrets();
});
afterEach(() => jest.restoreAllMocks());

const token = (n: number) => ({ statusCode: 200, body: { access_token: `t${n}`, expires_in: 3600 } });

describe('token cache', () => {
	it('replaces a rejected token once, however many callers report it', async () => {
		const auth = authServer(3600, token);
		await tokenFor(auth.httpRequest, version(1), options);
		const renewed = await Promise.all(Array.from({ length: 50 }, () => tokenFor(auth.httpRequest, version(1), { ...options, rejected: 't1' })));
		expect(auth.exchanges()).toBe(2);
		expect(new Set(renewed)).toEqual(new Set(['t2']));
	});

	it('answers a refused key from memory, and exchanges a corrected key at once', async () => {
		const auth = authServer(3600, (n, headers) => (headers['Api-Key'] === 'key-1' ? { statusCode: 401, body: {} } : token(n)));
		const first = await Promise.allSettled(Array.from({ length: 20 }, () => tokenFor(auth.httpRequest, version(1), options)));
		const later = await Promise.allSettled(Array.from({ length: 20 }, () => tokenFor(auth.httpRequest, version(1), options)));
		expect([...first, ...later].every((r) => r.status === 'rejected' && /rejected the API key/.test(String(r.reason)))).toBe(true);
		expect(auth.exchanges()).toBe(1);
		expect(await tokenFor(auth.httpRequest, version(2), options)).toBe('t2');
	});

	it('stops handing out a token shortly before it expires', () => {
		const issued = (inMs: number, lifetimeMs: number) => ({ token: 'a', expiresAtMs: Date.now() + inMs, lifetimeMs });
		expect(isFresh(issued(3_600_000, 3_600_000))).toBe(true);
		// 60 s margin for long lifetimes, a tenth of the lifetime for short ones
		expect(isFresh(issued(59_000, 3_600_000))).toBe(false);
		expect(isFresh(issued(150, 2_000))).toBe(false);
		expect(isFresh(issued(1_000, 2_000))).toBe(true);
	});
});

describe('the token cache is bounded', () => {
	it(`${VERSIONS} credential versions: at most ${TOKEN_MEMORY.maxEntries} remembered, the least recently used forgotten`, async () => {
		const auth = authServer();
		for (let n = 0; n < VERSIONS; n++) {
			await tokenFor(auth.httpRequest, version(n), options);
			advance(1);
		}
		expect(tokenCacheSize()).toBeLessThanOrEqual(TOKEN_MEMORY.maxEntries);
		// The first version was forgotten (exchanged again), the last one is still cached.
		await tokenFor(auth.httpRequest, version(0), options);
		await tokenFor(auth.httpRequest, version(VERSIONS - 1), options);
		expect([auth.exchangesOf(0), auth.exchangesOf(VERSIONS - 1)]).toEqual([2, 1]);
	});

	it('an expired token is not kept', async () => {
		const auth = authServer(120);
		await tokenFor(auth.httpRequest, version(1), options);
		expect(tokenCacheSize()).toBe(1);
		advance(121_000);
		await tokenFor(authServer().httpRequest, version(2), options);
		expect(tokenCacheSize()).toBe(1);
	});

	it('a credential unused for 10 minutes is forgotten, one used meanwhile is kept', async () => {
		const auth = authServer();
		await tokenFor(auth.httpRequest, version(1), options);
		await tokenFor(auth.httpRequest, version(2), options);
		advance(TOKEN_MEMORY.idleMs - 1000);
		await tokenFor(auth.httpRequest, version(2), options);
		advance(1000);
		await tokenFor(auth.httpRequest, version(3), options);
		expect(tokenCacheSize()).toBe(2);
		await tokenFor(auth.httpRequest, version(1), options);
		await tokenFor(auth.httpRequest, version(2), options);
		expect([auth.exchangesOf(1), auth.exchangesOf(2)]).toEqual([2, 1]);
	});

	it('an exchange under way is never dropped: its callers share it, whatever else arrives', async () => {
		let answer: (value: unknown) => void = () => {};
		let slowExchanges = 0;
		const slow: HttpRequest = async () => {
			slowExchanges++;
			return await new Promise((resolve) => (answer = resolve));
		};
		const waiting = Promise.all([tokenFor(slow, version(0), options), tokenFor(slow, version(0), options)]);
		const auth = authServer();
		for (let n = 1; n <= TOKEN_MEMORY.maxEntries * 2; n++) await tokenFor(auth.httpRequest, version(n), options);
		advance(TOKEN_MEMORY.idleMs * 2);
		await tokenFor(auth.httpRequest, version(-1), options);
		const third = tokenFor(slow, version(0), options);
		answer({ statusCode: 200, headers: {}, body: JSON.stringify({ access_token: 'slow-token', expires_in: 3600 }) });
		expect(await waiting).toEqual(['slow-token', 'slow-token']);
		expect(await third).toBe('slow-token');
		expect(slowExchanges).toBe(1);
	});
});

describe("the pacers and the webhook trigger's secret cache are bounded", () => {
	it(`${VERSIONS} accounts: at most 1,000 pacers; a busy pacer is never replaced`, async () => {
		const busy = pacerFor('busy');
		const admission = await busy.admit();
		for (let n = 0; n < VERSIONS; n++) {
			pacerFor(`account-${n}`);
			advance(1);
		}
		expect(pacerCount()).toBeLessThanOrEqual(1_000);
		expect(pacerFor('busy')).toBe(busy);
		busy.settle(admission, {});
		advance(10 * 60_000);
		pacerFor('another');
		expect(pacerFor('busy')).not.toBe(busy);
		expect(pacerCount()).toBe(2);
	});

	it(`${VERSIONS} credentials: at most 1,000 secrets, none kept after it expired`, async () => {
		for (let n = 0; n < VERSIONS; n++) await cachedSecret(`credential-${n}`, async () => `secret-${n}`, clock);
		expect(cachedSecretCount()).toBeLessThanOrEqual(1_000);
		advance(SECRET_TTL_MS);
		await cachedSecret('credential-new', async () => 'secret-new', clock);
		expect(cachedSecretCount()).toBe(1);
	});
});

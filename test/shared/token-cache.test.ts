/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import type { ApiCredentials } from '../../nodes/shared/transport/credential-values';
import { clearTokenCache, isFresh, tokenFor } from '../../nodes/shared/transport/token-cache';
import type { HttpRequest } from '../../nodes/shared/transport/token-exchange';

const credentials: ApiCredentials = { baseUrl: 'http://127.0.0.1:9/api', apiKey: 'key-1', customerId: 'customer-1', accessToken: '' };
const options = { timeoutMs: 1000, maxRetries: 0 };

/** A fake POST /auth: answers `answer(n)` for the n-th exchange, after a short delay. */
function authServer(answer: (n: number, headers: Record<string, string>) => { statusCode: number; body: object }) {
	let exchanges = 0;
	const httpRequest: HttpRequest = async (request) => {
		exchanges++;
		await new Promise((r) => setTimeout(r, 10));
		const { statusCode, body } = answer(exchanges, request.headers as Record<string, string>);
		return { statusCode, headers: {}, body: JSON.stringify(body) };
	};
	return { httpRequest, exchanges: () => exchanges };
}

const token = (n: number) => ({ statusCode: 200, body: { access_token: `t${n}`, expires_in: 3600 } });

describe('token cache', () => {
	beforeEach(() => clearTokenCache());

	it('replaces a rejected token once, however many callers report it', async () => {
		const auth = authServer(token);
		await tokenFor(auth.httpRequest, credentials, options);
		const renewed = await Promise.all(Array.from({ length: 50 }, () => tokenFor(auth.httpRequest, credentials, { ...options, rejected: 't1' })));
		expect(auth.exchanges()).toBe(2);
		expect(new Set(renewed)).toEqual(new Set(['t2']));
	});

	it('answers a refused key from memory, and exchanges a corrected key at once', async () => {
		const auth = authServer((n, headers) => (headers['Api-Key'] === 'key-1' ? { statusCode: 401, body: {} } : token(n)));
		const first = await Promise.allSettled(Array.from({ length: 20 }, () => tokenFor(auth.httpRequest, credentials, options)));
		const later = await Promise.allSettled(Array.from({ length: 20 }, () => tokenFor(auth.httpRequest, credentials, options)));
		expect([...first, ...later].every((r) => r.status === 'rejected' && /rejected the API key/.test(String(r.reason)))).toBe(true);
		expect(auth.exchanges()).toBe(1);
		expect(await tokenFor(auth.httpRequest, { ...credentials, apiKey: 'key-2' }, options)).toBe('t2');
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

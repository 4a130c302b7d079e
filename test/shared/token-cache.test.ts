import { clearTokenCache, isFresh, jwtTimes, obtainToken, peekToken, rememberToken } from '../../nodes/shared/token-cache';

const issued = (token: string, lifetimeMs: number) => ({ token, expiresAtMs: Date.now() + lifetimeMs, lifetimeMs });

describe('token cache', () => {
	beforeEach(() => clearTokenCache());

	it('shares one exchange between concurrent callers', async () => {
		let exchanges = 0;
		const exchange = async () => {
			exchanges++;
			await new Promise((r) => setTimeout(r, 20));
			return issued(`t${exchanges}`, 3_600_000);
		};
		const tokens = await Promise.all(Array.from({ length: 200 }, () => obtainToken('k', exchange)));
		expect(exchanges).toBe(1);
		expect(new Set(tokens)).toEqual(new Set(['t1']));
		expect(peekToken('k')).toBe('t1');
	});

	it('replaces a rejected token once, however many callers report it', async () => {
		let exchanges = 0;
		const exchange = async () => issued(`t${++exchanges}`, 3_600_000);
		await obtainToken('k', exchange);
		const renewed = await Promise.all(Array.from({ length: 50 }, () => obtainToken('k', exchange, 't1')));
		expect(exchanges).toBe(2);
		expect(new Set(renewed)).toEqual(new Set(['t2']));
	});

	it('stops handing out a token shortly before it expires', () => {
		expect(isFresh(issued('a', 3_600_000))).toBe(true);
		// 60 s margin for long lifetimes, a tenth of the lifetime for short ones
		expect(isFresh({ token: 'a', expiresAtMs: Date.now() + 59_000, lifetimeMs: 3_600_000 })).toBe(false);
		expect(isFresh({ token: 'a', expiresAtMs: Date.now() + 150, lifetimeMs: 2_000 })).toBe(false);
		expect(isFresh({ token: 'a', expiresAtMs: Date.now() + 1_000, lifetimeMs: 2_000 })).toBe(true);
	});

	it('keeps tokens apart per credential and adopts a stored token', async () => {
		rememberToken('a', issued('stored', 3_600_000));
		expect(peekToken('a')).toBe('stored');
		expect(peekToken('b')).toBeUndefined();
		expect(await obtainToken('a', async () => issued('new', 1000))).toBe('stored');
	});

	it('reads exp and iat from a JWT and ignores anything else', () => {
		const payload = Buffer.from(JSON.stringify({ exp: 2000, iat: 1000 })).toString('base64url');
		expect(jwtTimes(`h.${payload}.s`)).toEqual({ expiresAtMs: 2_000_000, issuedAtMs: 1_000_000 });
		expect(jwtTimes('not-a-jwt')).toEqual({});
	});
});

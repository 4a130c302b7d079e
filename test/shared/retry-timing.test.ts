import { backoffMs, retryAfterMs } from '../../nodes/shared/transport/retry-timing';

describe('retry timing', () => {
	it('reads Retry-After as seconds or an HTTP date', () => {
		expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
		expect(retryAfterMs({ 'retry-after': '0.5' })).toBe(500);
		const inThree = new Date(Date.now() + 3000).toUTCString();
		expect(retryAfterMs({ 'retry-after': inThree })).toBeGreaterThan(1000);
		expect(retryAfterMs({})).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
	});

	it('backs off exponentially with jitter, capped', () => {
		for (let attempt = 1; attempt <= 12; attempt++) {
			const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
			const wait = backoffMs(attempt);
			expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
			expect(wait).toBeLessThanOrEqual(ceiling);
		}
	});
});

import { Throttle } from '../../nodes/shared/throttle';
import { backoffMs, retryAfterMs } from '../../nodes/shared/transport';

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

	it('spaces requests evenly under a fixed quota', async () => {
		const throttle = new Throttle(50); // one every 20 ms
		const sentAt: number[] = [];
		for (let i = 0; i < 6; i++) {
			await throttle.acquire();
			sentAt.push(Date.now());
		}
		const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(15);
	});

	it('pauses everybody after a 429 and then paces below the accepted rate', async () => {
		const throttle = new Throttle(0);
		for (let i = 0; i < 10; i++) throttle.recordSuccess();
		throttle.rateLimited(100);
		const start = Date.now();
		await throttle.acquire();
		expect(Date.now() - start).toBeGreaterThanOrEqual(90);
		const next = Date.now();
		await throttle.acquire();
		// 10 accepted in the last second -> paced at 9.5/s, about 105 ms apart
		expect(Date.now() - next).toBeGreaterThanOrEqual(95);
	});
});

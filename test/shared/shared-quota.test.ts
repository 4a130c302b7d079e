import { type RateLimiterKind, customerBook, simulateSharedQuota } from '../helpers/shared-quota-simulation';

// Queue-mode workers share one account's quota and nothing else: each has its own pacer and sees only
// the API's answers. Simulated time (test/helpers/shared-quota-simulation.ts), against the emulator's
// 1 s sliding window (Retry-After 1 s), requests answered in 50 to 90 ms. The model has no n8n
// overhead, so its bounds are tighter than the bench's (bench/README.md, the ME-queue rows).

const latency = { latencyMs: 50, latencySpreadMs: 40 };

describe('processes sharing one quota (simulated)', () => {
	it('two workers, 100 requests/s, 100,000 items split between them: within 1.05x N/rate, at most 1 % answered 429', async () => {
		// Each worker has its half: the slower pace decides the end, so this needs fair shares.
		// The pacer that paused the whole process on every 429 and probed after 30 s: 1.085x.
		const outcome = await simulateSharedQuota({ quota: 100, processes: 2, concurrency: 1, executions: [50_000, 50_000], ...latency });
		expect(outcome.failed).toBe(0);
		expect(outcome.delivered).toBe(100_000);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.05);
		expect(outcome.rateLimited).toBeLessThanOrEqual(1_000);
	});

	it.each([1, 2, 3])('20 executions x 10 items at 20 requests/s on two workers, the second starting 300 ms late: within 1.3x (seed %i)', async (seed) => {
		// The first worker holds the quota when the second's burst comes: the second learns a tiny pace
		// and must win its share back within the 10 s run. Before: 1.42x with every seed.
		const outcome = await simulateSharedQuota({
			quota: 20,
			processes: 2,
			concurrency: 5,
			executions: Array.from({ length: 20 }, () => 10),
			startMs: [0, 300],
			seed,
			...latency,
		});
		expect(outcome.failed).toBe(0);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.3);
	});

	it.each([50, 100])('the customer book in queue mode, 10,000 customers at %i requests/s on two workers: at most 1 %% answered 429 (median of 3), each within 1.15x', async (quota) => {
		// Pages of 500, 5 at a time per worker (examples/customer-book-postgres.json). The pacer that
		// climbed past the refused pace every 2 to 4 s: 2.1 % at 50/s, 0.97 % at 100/s (seed 1). Held
		// below it for longer each time it finds the same share: about 0.8 % and 0.6 %, 0.2 % of them
		// the first burst (the window of each worker in flight when the first 429 comes).
		const shares: number[] = [];
		for (const seed of [1, 2, 3]) {
			const outcome = await simulateSharedQuota({ ...customerBook(2, quota), seed, ...latency });
			expect(outcome.delivered).toBe(10_000);
			expect(outcome.ofIdeal).toBeLessThanOrEqual(1.15);
			shares.push(outcome.rateLimited / outcome.sent);
		}
		expect(shares.sort((x, y) => x - y)[1]).toBeLessThanOrEqual(0.01);
	});

	it('a busy n8n (its event loop stalls up to 300 ms, every 2 s on average): 10,000 items at 50 requests/s on two workers within 1.15x, every item delivered', async () => {
		// What the admitted requests do after a stall: they leave together, and the API's second holds more
		// than the pace allowed, and the 429s come during the hold. Each steps the pace down; with 5 %
		// steps (and 95 % of the accepted rate after a climb) the pace drifted below the quota: 1.21x.
		const outcome = await simulateSharedQuota({ ...customerBook(2), stalls: { everyMs: 2000, maxMs: 300 }, ...latency });
		expect(outcome.failed).toBe(0);
		expect(outcome.delivered).toBe(10_000);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.15);
	});

	it('one process alone still learns an unknown quota: 10,000 items at 50 requests/s within 1.05x', async () => {
		const outcome = await simulateSharedQuota({ quota: 50, processes: 1, executions: [10_000], ...latency });
		expect(outcome.failed).toBe(0);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.05);
		expect(outcome.rateLimited).toBeLessThanOrEqual(100);
		expect(outcome.pacers[0].rate).toBeGreaterThan(40);
	});

	describe('against each limiter kind a gateway uses (sandbox/rate-limiters.js)', () => {
		const kinds: Array<[string, RateLimiterKind, number]> = [
			// name, limiter, most 429s (share of the calls): what the model gives today, rounded up
			// (bench/results.md, "Limiter kinds"); issue 58 asks for 1 % of every kind.
			['a sliding second', { kind: 'sliding' }, 0.011],
			['a calendar second', { kind: 'fixed' }, 0.015],
			['a sliding second that counts refused requests', { kind: 'sliding', countRefused: true }, 0.016],
			['a token bucket with a burst of a second', { kind: 'bucket' }, 0.018],
			['a token bucket that counts refused requests', { kind: 'bucket', countRefused: true }, 0.07],
		];

		it.each(kinds)('%s: the customer book, 10,000 customers at 50 requests/s on two workers, within 1.15x', async (_, limiter, most429s) => {
			// A limiter that counts refused requests answers 429 to all that comes during the wait: the pacer
			// that went on sending during it took 1.36x against such a bucket, a fifth of the calls refused,
			// and 1.8 % against such a sliding second.
			const outcome = await simulateSharedQuota({ ...customerBook(2), limiter, ...latency });
			expect(outcome.delivered).toBe(10_000);
			expect(outcome.ofIdeal).toBeLessThanOrEqual(1.15);
			expect(outcome.rateLimited / outcome.sent).toBeLessThanOrEqual(most429s);
		});

		// docs/scale.md's advice where the quota is known: Max Requests per Second at 98 % of quota / processes
		// rounded down. Not rounded down (2.45 for 10 on 4: each worker puts up to 3 requests into some seconds,
		// 4 x 3 > 10) the model drew 68 to 249 x 429 on these 2,000 checks; at exactly 25 of 50 (latency jitter
		// putting a request more into the API's second) 23 to 71 on the book's 10,000.
		it.each(kinds.flatMap(([name, limiter]) => [[name, 50, 2, limiter], [name, 10, 4, limiter]] as const))(
			'%s: Max Requests per Second at 98 %% of quota / processes rounded down spares every 429 (quota %i on %i workers)',
			async (_, quota, processes, limiter) => {
				const perProcess = 0.98 * Math.floor(quota / processes);
				const outcome = await simulateSharedQuota({
					quota,
					processes,
					concurrency: 5,
					executions: Array.from({ length: 20 }, () => quota * 10),
					maxRequestsPerSecond: perProcess,
					limiter,
					...latency,
				});
				expect(outcome.failed).toBe(0);
				expect(outcome.rateLimited).toBe(0);
				// Within 1.05x of what that pace allows.
				expect(outcome.ofIdeal * (perProcess * processes)).toBeLessThanOrEqual(1.05 * quota);
			},
		);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import { simulateSharedQuota } from '../helpers/shared-quota-simulation';

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

	it('a busy n8n (its event loop stalls up to 300 ms, every 2 s on average): 10,000 items at 50 requests/s on two workers within 1.15x, every item delivered', async () => {
		// What the admitted requests do after a stall: they leave together, and the API's second holds more
		// than the pace allowed: 3.2 % answered 429 here (2.0 % without stalls), the share the bench's
		// queue-mode book shows on a loaded machine (bench/results.md, issue 48).
		const outcome = await simulateSharedQuota({ quota: 50, processes: 2, concurrency: 5, executions: Array.from({ length: 20 }, () => 500), pageStartMs: 500, stalls: { everyMs: 2000, maxMs: 300 }, ...latency });
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
});

// The customer book in queue mode (examples/customer-book-postgres.json), as a table: pages of 500, each
// worker taking 5 at a time, each page starting half a second after it is taken. QUOTA_TABLE=1 prints
// quota x workers x book: the share answered 429, the time against N/rate, and the 429s by cause
// (unknown quota / past the last refusal / processes together over the quota / timing jitter).
// QUOTA_TABLE_BOOKS=2000,10000,100000 chooses the books. Issue 48's targets (at most 1 %, 1.15x) are not
// met yet at low quotas and several workers: see bench/results.md.
const describeTable = process.env.QUOTA_TABLE ? describe : describe.skip;
describeTable('the customer book in queue mode (simulated), as a table', () => {
	const books = (process.env.QUOTA_TABLE_BOOKS ?? '2000,10000').split(',').map(Number);
	const grid = books.flatMap((book) => [10, 20, 50, 100, 200].flatMap((quota) => [1, 2, 4].map((workers) => ({ book, quota, workers }))));
	it.each(grid)('$book customers at $quota requests/s, $workers worker(s)', async ({ book, quota, workers }) => {
		const outcome = await simulateSharedQuota({ quota, processes: workers, concurrency: 5, executions: Array.from({ length: book / 500 }, () => 500), pageStartMs: 500, ...latency });
		const idealMs = (book * 1000) / quota;
		const { unknownQuota, pastRefusal, together, jitter } = outcome.causes;
		process.stdout.write(`| ${book} | ${quota} | ${workers} | ${((100 * outcome.rateLimited) / outcome.sent).toFixed(2)} % (${outcome.rateLimited}) | ${outcome.ofIdeal.toFixed(3)}x (+${((outcome.elapsedMs - idealMs) / 1000).toFixed(1)} s) | ${unknownQuota} / ${pastRefusal} / ${together} / ${jitter} |\n`);
		expect(outcome.failed).toBe(0);
		expect(outcome.delivered).toBe(book);
	});
});

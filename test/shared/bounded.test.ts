/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * forEachBounded (nodes/shared/operation/bounded.ts), one row per case: the items of a run start in
 * input order, at most `limit` at a time; the first failure or a stop starts no new item, and the
 * items under way finish. No emulator, no n8n: each worker takes `ticks` turns of the event loop.
 */
import { forEachBounded } from '../../nodes/shared/operation/bounded';

interface Row {
	entries: number;
	/** The limit; a function of how many entries finished when it changes while they run. */
	limit: number | ((finished: number) => number);
	/** Entries whose worker throws. */
	fail?: number[];
	/** Turn stop() true once this many entries started. */
	stopAfter?: number;
	/** Event-loop turns each entry takes (default 1). */
	ticks?: number[];
	started: number[];
	finished: number[];
	peak: number;
	/** The most entries under way at a start after the first one finished. */
	peakLater?: number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const rows: Array<[string, Row]> = [
	['5 entries, 2 at a time', { entries: 5, limit: 2, started: [0, 1, 2, 3, 4], finished: [0, 1, 2, 3, 4], peak: 2 }],
	['a limit above the number of entries', { entries: 3, limit: 10, started: [0, 1, 2], finished: [0, 1, 2], peak: 3 }],
	['a limit of 0 still runs one at a time', { entries: 3, limit: 0, started: [0, 1, 2], finished: [0, 1, 2], peak: 1 }],
	['no entries', { entries: 0, limit: 4, started: [], finished: [], peak: 0 }],
	['one at a time, the 3rd fails: nothing after it starts', { entries: 5, limit: 1, fail: [2], started: [0, 1, 2], finished: [0, 1], peak: 1 }],
	['3 at a time, the 1st fails: the two under way finish, none starts', { entries: 6, limit: 3, fail: [0], ticks: [1, 3, 3], started: [0, 1, 2], finished: [1, 2], peak: 3 }],
	['a slow entry does not hold the others back beyond the limit', { entries: 4, limit: 2, ticks: [6, 1, 1, 1], started: [0, 1, 2, 3], finished: [1, 2, 3, 0], peak: 2 }],
	['stopped after 2 started (a cancelled execution)', { entries: 5, limit: 1, stopAfter: 2, started: [0, 1], finished: [0, 1], peak: 1 }],
	['the limit shrinks while the entries run (the concurrency window)', { entries: 6, limit: (finished) => (finished === 0 ? 3 : 1), ticks: [1, 2, 3, 1, 1, 1], started: [0, 1, 2, 3, 4, 5], finished: [0, 1, 2, 3, 4, 5], peak: 3, peakLater: 1 }],
];

describe('forEachBounded', () => {
	it.each(rows)('%s', async (_, row) => {
		const started: number[] = [];
		const finished: number[] = [];
		let running = 0;
		let peak = 0;
		let peakLater = 0;
		const limit = () => (typeof row.limit === 'function' ? row.limit(finished.length) : row.limit);
		const count = await forEachBounded(
			Array.from({ length: row.entries }, (_, i) => i),
			limit,
			async (entry) => {
				started.push(entry);
				peak = Math.max(peak, ++running);
				if (finished.length > 0) peakLater = Math.max(peakLater, running);
				for (let t = 0; t < (row.ticks?.[entry] ?? 1); t++) await turn();
				running--;
				if (row.fail?.includes(entry)) throw new Error(`entry ${entry}`);
				finished.push(entry);
			},
			() => row.stopAfter !== undefined && started.length >= row.stopAfter,
		);
		expect(started).toEqual(row.started);
		expect(finished).toEqual(row.finished);
		expect(count).toBe(row.started.length);
		expect(peak).toBe(row.peak);
		if (row.peakLater !== undefined) expect(peakLater).toBe(row.peakLater);
	});
});

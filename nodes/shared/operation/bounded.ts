/**
 * Runs `worker` over `entries` in their order with at most `limit()` at a time, asked again whenever
 * an entry finishes (the limit may change while the entries run). The first error, or `stop()`
 * turning true, starts no new entry, and the entries under way finish. Resolves with how many entries
 * were started; the caller collects the errors.
 *
 * This bounds the items of one run; the pacer (pacing.ts) bounds the requests of the whole process.
 * A new item starts only here, after an earlier one has finished and its failure is known, never
 * when a place in the pacer's window frees up: a place frees before the failure of the request that
 * held it reaches the runner, and a payment item waiting there would be sent after it.
 */
export async function forEachBounded<T>(
	entries: T[],
	limit: () => number,
	worker: (entry: T) => Promise<void>,
	stop: () => boolean = () => false,
): Promise<number> {
	let next = 0;
	let running = 0;
	let failed = false;
	return await new Promise<number>((resolve) => {
		const run = async (entry: T) => {
			try {
				await worker(entry);
			} catch {
				failed = true;
			}
			running--;
			startMore();
		};
		const startMore = () => {
			while (!failed && !stop() && next < entries.length && running < Math.max(1, limit())) {
				running++;
				void run(entries[next++]);
			}
			if (running === 0) resolve(next);
		};
		startMore();
	});
}

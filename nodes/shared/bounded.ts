/**
 * Runs `worker` over `entries` with at most `limit` at a time, in order of the entries; the first
 * error, or `stop()` turning true, starts no new entry, and the entries under way finish. Resolves
 * with how many entries were started; the caller collects the errors.
 */
export async function forEachBounded<T>(
	entries: T[],
	limit: number,
	worker: (entry: T) => Promise<void>,
	stop: () => boolean = () => false,
): Promise<number> {
	let next = 0;
	let failed = false;
	const lane = async () => {
		while (!failed && !stop() && next < entries.length) {
			const entry = entries[next++];
			try {
				await worker(entry);
			} catch {
				failed = true;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, lane));
	return next;
}

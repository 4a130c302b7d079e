import { sleep } from 'n8n-workflow';

/**
 * Paces the requests of one node run. With a known quota it spaces requests evenly; without one it
 * starts unthrottled and, when the API answers 429, pauses every request until the API's Retry-After
 * and then paces at slightly below the rate the API was seen to accept, so that a rate-limited run
 * settles at the quota instead of bouncing off it.
 */
export class Throttle {
	private nextSlotMs = 0;
	private pausedUntilMs = 0;
	private intervalMs: number;
	private readonly fixed: boolean;
	private readonly recentSuccesses: number[] = [];

	constructor(maxRequestsPerSecond: number) {
		this.fixed = maxRequestsPerSecond > 0;
		this.intervalMs = this.fixed ? 1000 / maxRequestsPerSecond : 0;
	}

	/** Resolves when the caller may send its request. */
	async acquire(): Promise<void> {
		for (;;) {
			const now = Date.now();
			const start = Math.max(now, this.pausedUntilMs, this.nextSlotMs);
			if (start <= now) {
				this.nextSlotMs = now + this.intervalMs;
				return;
			}
			await sleep(start - now);
		}
	}

	recordSuccess(): void {
		if (this.fixed) return;
		const now = Date.now();
		this.recentSuccesses.push(now);
		while (this.recentSuccesses.length && this.recentSuccesses[0] < now - 1000) this.recentSuccesses.shift();
	}

	/** The API said "too many requests": everybody waits, then the pace follows what it accepted. */
	rateLimited(waitMs: number): void {
		const now = Date.now();
		const sameBurst = now < this.pausedUntilMs + 1000;
		this.pausedUntilMs = Math.max(this.pausedUntilMs, now + waitMs);
		// Answers to requests sent in the same burst say nothing new about the quota.
		if (this.fixed || sameBurst) return;
		const acceptedPerSecond = this.recentSuccesses.filter((t) => t >= now - 1000).length;
		const proposed = acceptedPerSecond > 0 ? 1000 / (acceptedPerSecond * 0.95) : Math.max(this.intervalMs * 2, 100);
		// Only ever slow down within a run: a 429 is proof the previous pace was too fast.
		this.intervalMs = Math.max(this.intervalMs * 1.05, proposed);
	}
}

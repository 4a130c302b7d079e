import { LruMemory, type MemoryLimits } from './lru-memory';
import type { Pace } from './classify';
import { ConcurrencyWindow } from './concurrency-window';
import { unlessCancelled, wait } from './wait';

/** Time and waiting, injectable so the pacer can be tested with a fake clock. */
export interface Clock {
	now(): number;
	/** Waits `ms`; ends at once with ExecutionCancelled when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now(), sleep: wait };

/** Multiplicative decrease: after a 429 the pace is this share of what the API was seen to accept. */
const DECREASE_FACTOR = 0.95;
/** Additive increase: requests per second gained per second without a 429 once the quiet period is over. */
const PROBE_STEP_PER_SECOND = 0.2;
/**
 * No probing for this long after a 429: above the learnt pace every probe costs a 429 and a whole
 * Retry-After pause for the process, so shorter quiet periods make many executions slower overall.
 */
const QUIET_MS = 30_000;
/** After this long without a 429 the pacer forgets what it learnt and runs unthrottled again. */
const FORGET_MS = 60_000;
/** The window over which the accepted rate is counted. */
const BURST_MS = 1_000;

/** One admitted request, as admit() hands it out: what settle() needs. */
export interface Admission {
	atMs: number;
	/** Successes of the account counted when the request was admitted. */
	delivered: number;
}

/**
 * Paces every request of one n8n process to one account (the same key as the token cache): all
 * executions, all node runs. Everything an n8n process learns about the account lives here:
 *
 * - Max Requests per Second (a run's setting) spaces requests evenly; the slots are shared, so two
 *   executions set to 20 req/s send 20 req/s together, not 40.
 * - Without a known quota the pacer starts unthrottled. A 429 pauses every request until the API's
 *   Retry-After and sets the pace to slightly below the rate the API was seen to accept
 *   (multiplicative decrease). After a quiet period the pace rises slowly (additive increase), so a
 *   process that shares the quota with other processes (queue-mode workers) converges to its fair
 *   share and takes the capacity back when the others stop, AIMD as in TCP.
 * - The requests in flight are counted for the whole process and bounded by the concurrency window
 *   (concurrency-window.ts): it starts at 10, grows while answers come back healthy and shrinks on
 *   429, 503, timeouts and slower answers. A run's Max Concurrent Requests bounds that run below it.
 */
export class Pacer {
	private nextSlotMs = 0;
	private pausedUntilMs = 0;
	/** Adaptive spacing in ms; 0 = unthrottled. */
	private adaptiveIntervalMs = 0;
	private lastRateLimitMs = Number.NEGATIVE_INFINITY;
	private lastProbeMs = 0;
	private readonly recentSuccesses: number[] = [];
	private deliveredCount = 0;
	private inFlightCount = 0;
	/** Callers inside admit(), waiting for a slot or for room. */
	private waitingCount = 0;
	private rateLimitedCount = 0;
	private readonly window = new ConcurrencyWindow();
	/** Callers waiting for room in the window; woken (all) whenever the room or the rules change. */
	private windowWaiters: Array<() => void> = [];

	constructor(private readonly clock: Clock = systemClock) {}

	/**
	 * Resolves when the caller may send its request. maxRequestsPerSecond > 0 is the caller's run's
	 * fixed quota; the spacing used is the slower of it and the adaptive pace. An aborted `signal`
	 * (a cancelled execution) ends the wait at once with ExecutionCancelled, admitting nothing.
	 */
	async admit(maxRequestsPerSecond = 0, signal?: AbortSignal): Promise<Admission> {
		const fixedIntervalMs = maxRequestsPerSecond > 0 ? 1000 / maxRequestsPerSecond : 0;
		this.waitingCount++;
		try {
			for (;;) {
				const now = this.clock.now();
				this.probe(now);
				if (this.inFlightCount >= this.window.limit) {
					let wake = () => {};
					const room = new Promise<void>((resolve) => {
						wake = resolve;
						this.windowWaiters.push(resolve);
					});
					try {
						await unlessCancelled(room, signal);
					} finally {
						this.windowWaiters = this.windowWaiters.filter((waiter) => waiter !== wake);
					}
					continue;
				}
				const start = Math.max(now, this.pausedUntilMs, this.nextSlotMs);
				if (start <= now) {
					this.nextSlotMs = now + Math.max(fixedIntervalMs, this.adaptiveIntervalMs);
					this.inFlightCount++;
					return { atMs: now, delivered: this.deliveredCount };
				}
				await this.clock.sleep(start - now, signal);
			}
		} finally {
			this.waitingCount--;
		}
	}

	/**
	 * The request admitted by admit() has its answer (or failed): it no longer counts as in flight, and
	 * the pacer learns from its outcome (classify.ts `Pace`), in one step.
	 */
	settle(admission: Admission, pace: Pace): void {
		const windowWasFull = this.inFlightCount >= this.window.limit;
		if (this.inFlightCount > 0) this.inFlightCount--;
		if (pace.overloaded) this.overloaded(admission);
		if (pace.rateLimitedMs !== undefined) this.rateLimited(admission, pace.rateLimitedMs);
		if (pace.delivered) this.delivered(admission, windowWasFull);
		this.wakeWindowWaiters();
	}

	/** A success (or an answer the operation accepts). */
	private delivered(admission: Admission, windowWasFull: boolean): void {
		const now = this.clock.now();
		this.deliveredCount++;
		this.recentSuccesses.push(now);
		while (this.recentSuccesses.length && this.recentSuccesses[0] < now - BURST_MS)
			this.recentSuccesses.shift();
		const rttMs = Math.max(1, now - admission.atMs);
		const deliveryRate = ((this.deliveredCount - admission.delivered) * 1000) / rttMs;
		this.window.answered({ rttMs, deliveryRate, full: windowWasFull }, now);
	}

	/** A 503, a timeout or a failed connection: fewer requests in flight. */
	private overloaded(admission: Admission): void {
		const now = this.clock.now();
		this.window.overloaded(now - admission.atMs, now);
	}

	/** The API said "too many requests": everybody waits, then the pace follows what it accepted. */
	private rateLimited(admission: Admission, waitMs: number): void {
		const now = this.clock.now();
		this.rateLimitedCount++;
		// 429s that arrive during the pause answer requests sent before it: they say nothing new. A 429
		// after the pause means the new pace is still too fast (counting the second after the pause as
		// the same burst would extend the pause forever without ever slowing down).
		const sameBurst = now < this.pausedUntilMs;
		this.pausedUntilMs = Math.max(this.pausedUntilMs, now + waitMs);
		this.lastRateLimitMs = now;
		this.lastProbeMs = now;
		if (sameBurst) return;
		this.window.overloaded(now - admission.atMs, now);
		const accepted = this.recentSuccesses.filter((t) => t >= now - BURST_MS).length;
		const proposed =
			accepted > 0
				? 1000 / (accepted * DECREASE_FACTOR)
				: Math.max(this.adaptiveIntervalMs * 2, 100);
		// A 429 is proof the current pace was too fast: never speed up on one.
		this.adaptiveIntervalMs = Math.max(this.adaptiveIntervalMs / DECREASE_FACTOR, proposed);
	}

	/** Requests per second the pacer currently allows on its own (Infinity = unthrottled). */
	get rate(): number {
		return this.adaptiveIntervalMs > 0 ? 1000 / this.adaptiveIntervalMs : Number.POSITIVE_INFINITY;
	}

	get inFlight(): number {
		return this.inFlightCount;
	}

	/** A request in flight or a caller waiting for one: the pacer must stay the account's. */
	get busy(): boolean {
		return this.inFlightCount > 0 || this.waitingCount > 0;
	}

	get rateLimits(): number {
		return this.rateLimitedCount;
	}

	/** Requests the process may have in flight now (the concurrency window). */
	get inFlightWindow(): number {
		return this.window.limit;
	}

	private wakeWindowWaiters(): void {
		if (!this.windowWaiters.length) return;
		const waiters = this.windowWaiters;
		this.windowWaiters = [];
		for (const wake of waiters) wake();
	}

	/** Additive increase after a quiet period; forgetting after a long one. */
	private probe(now: number): void {
		if (this.adaptiveIntervalMs === 0) return;
		const quietFor = now - this.lastRateLimitMs;
		if (quietFor >= FORGET_MS) {
			this.adaptiveIntervalMs = 0;
			this.window.reset();
			return;
		}
		if (quietFor < QUIET_MS) return;
		const since = Math.max(this.lastProbeMs, this.lastRateLimitMs + QUIET_MS);
		if (now <= since) return;
		const rate = 1000 / this.adaptiveIntervalMs + (PROBE_STEP_PER_SECOND * (now - since)) / 1000;
		this.adaptiveIntervalMs = 1000 / rate;
		this.lastProbeMs = now;
	}
}

/**
 * A pacer unused for 10 minutes has long forgotten what it learnt (FORGET_MS) and is dropped; at most
 * 1,000 accounts are kept (the least recently used idle ones go first). A busy pacer is never dropped.
 */
export const PACER_MEMORY: MemoryLimits = { maxEntries: 1_000, idleMs: 10 * 60_000 };

const pacers = new LruMemory<Pacer>(PACER_MEMORY, (pacer) => pacer.busy);

/** The process-wide pacer of one account (key: credentialKey of the credential). */
export function pacerFor(key: string): Pacer {
	return pacers.obtain(key, () => new Pacer());
}

/** Tests only: forget every pacer. */
export function resetPacers(): void {
	pacers.clear();
}

/** Tests only: how many accounts have a pacer. */
export function pacerCount(): number {
	return pacers.size;
}

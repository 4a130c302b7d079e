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

/**
 * Multiplicative decrease: after a 429 that ends a climb the pace is this share of what the API was
 * seen to accept; a 429 during the hold lowers the pace by the same factor. 3 % below the quota leaves
 * room for the jitter of latency that puts one request more into the API's second now and then.
 */
export const DECREASE_FACTOR = 0.97;
/**
 * A Retry-After up to this long is what a quota per second (or a sliding window of a second) answers:
 * a place frees within it anyway, so only the refused request waits for it, and the others go on at
 * the lower pace. A longer one (a quota per minute or hour) pauses every request until it is over.
 */
export const SHORT_RETRY_AFTER_MS = 2_000;
/**
 * After the hold the pace climbs along a cubic curve (as TCP's CUBIC): slowly at first, then faster
 * and faster, so a worker takes the capacity back soon after the others stop. The curve is in requests
 * per second (per period of the quota: the longer of 1 s and the Retry-After), the same for every
 * process, so processes that share a quota converge to fair shares whatever they learnt first: the
 * one with the smaller pace gains as much per second as the others, a larger part of its own.
 */
const CUBIC_GROWTH = 0.1;
/**
 * After a 429 the pace stays flat below the rate that drew it for a while before it climbs again: each
 * climb past that rate costs a few 429s (this process's and those of the processes that share the
 * quota), so it must come rarely. The hold starts at none, so a process that learnt a small share from
 * a first burst takes its share back within seconds, and doubles each time a climb ends with a 429
 * near the rate of the last one (the share is known), up to MAX_HOLD_MS. It is counted in time, the
 * same for every process whatever its share (counted in requests, a process with a larger share would
 * climb more often, and every climb takes a little from the others), but it ends after
 * MAX_HOLD_REQUESTS at the held pace: a process left alone by the others (their pages done) then finds
 * the free capacity within seconds, where a 30 s hold at 50 requests/s would leave half the quota
 * unused for half a minute.
 */
export const FIRST_HOLD_MS = 2_000;
export const MAX_HOLD_MS = 30_000;
export const MAX_HOLD_REQUESTS = 400;
/**
 * Refusals of requests sent during one Retry-After, more than the answers accepted meanwhile, that
 * pause every request (refusedMostly). Fewer pause on a few refusals in a row that an n8n busy for a
 * moment sends together; then the pace alone must hold the quota.
 */
export const STORM_REFUSALS = 5;
/** A climb that ends with a 429 within this factor of the last one found the same share. */
const SAME_SHARE = 1.25;
/** After this long without a request the pacer forgets what it learnt and starts unthrottled again. */
export const FORGET_MS = 60_000;
/** The pace after a 429 when the API accepted nothing of this process yet. */
const FIRST_GUESS_RATE = 10;
/** The shortest window over which the accepted rate is counted: a quota per second shows in it. */
const BURST_MS = 1_000;
/**
 * The accepted rate is counted over at least this many answers (up to RATE_SAMPLE_MS back): a
 * count over one second of a small share (2 or 3 answers) would be off by a third either way.
 */
const RATE_SAMPLE_ANSWERS = 20;
const RATE_SAMPLE_MS = 5_000;
/**
 * The first 429 is counted against the answers of up to this long: n8n starting its executions
 * handles answers late and in bunches, so the last second can hold more answers than the API accepted
 * in any second, and a pace taken from it would draw the next burst of 429s (bench/results.md,
 * "Unused pace and bunched answers").
 */
const FIRST_BURST_SAMPLE_MS = 2_000;

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
 * - Without a known quota the pacer starts unthrottled. The first 429 pauses every request until
 *   the API's Retry-After and sets the pace slightly below the rate the API was seen to accept
 *   (multiplicative decrease). Later 429s with a short Retry-After (a quota per second) lower the pace
 *   the same way but pause nothing: only the refused request waits and is sent again, so a worker
 *   that shares the quota loses one request, not a second of its share; unless most requests sent
 *   during the wait are refused too (a limiter that counts refusals, refusedMostly). A long
 *   Retry-After (a quota per minute or hour) still pauses every request. The pace then holds
 *   (FIRST_HOLD_MS, longer each time the same share is found again) and climbs back along a cubic
 *   curve (CUBIC_GROWTH), so processes that share the quota (queue-mode workers) converge to fair
 *   shares, one takes the capacity back soon after the others stop, and 429s stay a small share of
 *   the calls. A 429 during the hold (another process climbing) only steps the pace down. The hold
 *   and the curve stand still while the pace goes unused (see probe); a pacer idle for a minute
 *   forgets the pace.
 * - The requests in flight are counted for the whole process and bounded by the concurrency window
 *   (concurrency-window.ts): it starts at 10, grows while answers come back healthy and shrinks on
 *   429, 503, timeouts and slower answers. A run's Max Concurrent Requests bounds that run below it.
 */
export class Pacer {
	private nextSlotMs = 0;
	private pausedUntilMs = 0;
	/** Adaptive spacing in ms; 0 = unthrottled. */
	private adaptiveIntervalMs = 0;
	/** The rate the API accepted when a climb last ended with a 429. */
	private ceilingRate = 0;
	/** How long the pace stays flat after a decrease before it climbs (see FIRST_HOLD_MS). */
	private holdMs = 0;
	/** The pace during the hold, where the curve starts. */
	private plateauRate = 0;
	/** When the hold ends and the pace climbs again. */
	private climbFromMs = 0;
	/** The quota's period as the last 429 told it: the longer of 1 s and its Retry-After. */
	private periodMs = BURST_MS;
	/** 429s for requests admitted before this answer the same overshoot as the last decrease. */
	private sameOvershootUntilMs = Number.NEGATIVE_INFINITY;
	/** The wait the first 429 of the latest run of refusals asked for; what was refused and answered since. */
	private refusalWaitStartMs = Number.NEGATIVE_INFINITY;
	private refusalWaitUntilMs = Number.NEGATIVE_INFINITY;
	private refusedInWait = 0;
	private deliveredAtWaitStart = 0;
	/** Since when no request is in flight or waiting (undefined: busy). */
	private idleSinceMs: number | undefined;
	/** When the answers of the last RATE_SAMPLE_MS came, oldest first, from `successesHead` on. */
	private readonly recentSuccesses: number[] = [];
	private successesHead = 0;
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
		this.resumeAfterIdle(this.clock.now());
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
					this.nextSlotMs = this.slotAfter(now, fixedIntervalMs);
					this.inFlightCount++;
					return { atMs: now, delivered: this.deliveredCount };
				}
				await this.clock.sleep(start - now, signal);
			}
		} finally {
			this.waitingCount--;
			this.noteIdle();
		}
	}

	/**
	 * When the request after one admitted `now` may go. A learnt pace is kept on average: a timer fires
	 * a millisecond or more after its time (the event loop counts whole milliseconds and has other work),
	 * and counting each interval from then would send 10 % below a pace of 100 requests/s. So the next
	 * slot follows the last one; probe() has already moved a slot left unused for more than half an
	 * interval (a stall, or no request to send) to now, so that lateness is not made up and never turns
	 * into a burst. Max Requests per Second keeps its exact spacing, from the request before: it
	 * promises never to send faster than that rate (docs/scale.md says why to set it a little below
	 * the quota).
	 */
	private slotAfter(now: number, fixedIntervalMs: number): number {
		const intervalMs = this.adaptiveIntervalMs;
		if (intervalMs <= fixedIntervalMs) return now + fixedIntervalMs;
		return Math.max(this.nextSlotMs + intervalMs, now + fixedIntervalMs);
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
		this.noteIdle();
		this.wakeWindowWaiters();
	}

	/** A success (or an answer the operation accepts). */
	private delivered(admission: Admission, windowWasFull: boolean): void {
		const now = this.clock.now();
		this.deliveredCount++;
		this.recentSuccesses.push(now);
		this.forgetSuccessesBefore(now - RATE_SAMPLE_MS);
		const rttMs = Math.max(1, now - admission.atMs);
		const deliveryRate = ((this.deliveredCount - admission.delivered) * 1000) / rttMs;
		this.window.answered({ rttMs, deliveryRate, full: windowWasFull }, now);
	}

	/** A 503, a timeout or a failed connection: fewer requests in flight. */
	private overloaded(admission: Admission): void {
		const now = this.clock.now();
		this.window.overloaded(now - admission.atMs, now);
	}

	/**
	 * The API said "too many requests": the pace drops below what it accepted. When the pace was still
	 * unknown (a burst) or the Retry-After is long, everybody waits for it first.
	 */
	private rateLimited(admission: Admission, waitMs: number): void {
		const now = this.clock.now();
		this.rateLimitedCount++;
		const unknownPace = this.adaptiveIntervalMs === 0;
		const pause =
			unknownPace || waitMs > SHORT_RETRY_AFTER_MS || this.refusedMostly(admission, now, waitMs);
		if (pause) this.pausedUntilMs = Math.max(this.pausedUntilMs, now + waitMs);
		// 429s for requests sent before the last decrease took effect say nothing new: the API counts
		// what it accepted over its period, so a lower pace shows only after one. A 429 after that
		// means the new pace is still too fast.
		if (admission.atMs < this.sameOvershootUntilMs) return;
		this.sameOvershootUntilMs = now + Math.max(waitMs, BURST_MS);
		// A burst against an unknown quota: fewer in flight bounds the next one. Once the pace is
		// known it is what holds requests back, and the refused ones wait in the run's window.
		if (pause) this.window.overloaded(now - admission.atMs, now);
		this.forgetSuccessesBefore(now - RATE_SAMPLE_MS);
		const accepted = unknownPace ? this.firstBurstRate(now) : this.acceptedRate(now);
		// Nothing accepted (another process holds the quota): half the pace, or 10 requests/s at first.
		const guess = unknownPace ? FIRST_GUESS_RATE : this.rate / 2;
		// Requests go out again after the pause, if any.
		const resumeMs = pause ? now + waitMs : now;
		this.periodMs = Math.max(BURST_MS, waitMs);
		if (!unknownPace && now < this.climbFromMs) {
			// Refused during the hold: the processes together were too fast (another one climbing, or
			// requests bunched by a busy event loop). A small step down, the hold kept: restarting it
			// on every such 429 would keep this process from climbing for as long as the others climb.
			this.plateauRate *= DECREASE_FACTOR;
			this.adaptiveIntervalMs = 1000 / this.plateauRate;
			return;
		}
		const previousCeiling = this.ceilingRate;
		// A 429 is proof the current pace was too fast: never speed up on one.
		this.ceilingRate = accepted > 0 ? Math.min(accepted, this.rate) : guess;
		if (!unknownPace) {
			const sameShare =
				this.ceilingRate <= previousCeiling * SAME_SHARE &&
				this.ceilingRate >= previousCeiling / SAME_SHARE;
			this.holdMs = sameShare ? Math.min(MAX_HOLD_MS, Math.max(FIRST_HOLD_MS, 2 * this.holdMs)) : 0;
		}
		this.plateauRate = this.ceilingRate * DECREASE_FACTOR;
		this.adaptiveIntervalMs = 1000 / this.plateauRate;
		this.climbFromMs =
			resumeMs + Math.min(this.holdMs, (MAX_HOLD_REQUESTS * 1000) / this.plateauRate);
		// A slot left unused before this 429 must not stretch the hold that starts with it (probe).
		this.nextSlotMs = Math.max(this.nextSlotMs, now);
	}

	/**
	 * Whether the API refuses most of what it is sent while the wait of a 429 runs: its limiter counts
	 * refused requests too (a sliding window that keeps them, a token bucket that goes into debt), and
	 * every request sent before the wait is over is refused and puts the end further off. Then only a
	 * pause of every request lets the quota come back. Where refusals are a few among many answers
	 * (another process climbing, answers bunched), going on at a lower pace loses less.
	 */
	private refusedMostly(admission: Admission, now: number, waitMs: number): boolean {
		if (now >= this.refusalWaitUntilMs) {
			this.refusalWaitStartMs = now;
			this.refusalWaitUntilMs = now + waitMs;
			this.refusedInWait = 0;
			this.deliveredAtWaitStart = this.deliveredCount;
			return false;
		}
		// Requests sent before the first 429 came back were refused for the same reason as it.
		if (admission.atMs < this.refusalWaitStartMs) return false;
		this.refusedInWait++;
		return (
			this.refusedInWait >= STORM_REFUSALS &&
			this.refusedInWait > this.deliveredCount - this.deliveredAtWaitStart
		);
	}

	/**
	 * Answers per second lately: over the last second, or over the last RATE_SAMPLE_ANSWERS answers
	 * when the last second had fewer (at least a second, at most RATE_SAMPLE_MS).
	 */
	private acceptedRate(now: number): number {
		const times = this.recentSuccesses;
		const from = Math.max(this.successesHead, times.length - RATE_SAMPLE_ANSWERS);
		if (from === times.length || times[from] >= now - BURST_MS) {
			let first = this.successesHead;
			while (first < times.length && times[first] < now - BURST_MS) first++;
			return times.length - first;
		}
		return ((times.length - from) * 1000) / (now - times[from]);
	}

	/**
	 * Answers per second before the first 429: the lower of the last second's count and the count
	 * since the first answer of the last FIRST_BURST_SAMPLE_MS (at least a second).
	 */
	private firstBurstRate(now: number): number {
		const times = this.recentSuccesses;
		let first = this.successesHead;
		while (first < times.length && times[first] < now - FIRST_BURST_SAMPLE_MS) first++;
		if (first === times.length) return 0;
		const spanMs = Math.max(BURST_MS, now - times[first]);
		return Math.min(this.acceptedRate(now), ((times.length - first) * 1000) / spanMs);
	}

	private forgetSuccessesBefore(oldestMs: number): void {
		const times = this.recentSuccesses;
		while (this.successesHead < times.length && times[this.successesHead] < oldestMs)
			this.successesHead++;
		if (this.successesHead > 1024 && this.successesHead * 2 > times.length) {
			times.splice(0, this.successesHead);
			this.successesHead = 0;
		}
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

	/**
	 * After the hold, the pace climbs along the recovery curve (CUBIC_GROWTH). The hold and the curve
	 * count only time the pace was used: a slot that no request took (nothing to send, a page starting,
	 * the window full, an event loop stalled) proves nothing about the quota, and a curve that climbed
	 * meanwhile would send far past it once requests come again, a burst of 429s for every process on
	 * the account. Time paused after a 429 counts: the hold starts after it.
	 */
	private probe(now: number): void {
		if (this.adaptiveIntervalMs === 0) return;
		if (now - this.nextSlotMs > this.adaptiveIntervalMs / 2) {
			this.climbFromMs += Math.max(0, now - Math.max(this.nextSlotMs, this.pausedUntilMs));
			this.nextSlotMs = now;
		}
		const periods = Math.max(0, now - this.climbFromMs) / this.periodMs;
		this.adaptiveIntervalMs = 1000 / (this.plateauRate + CUBIC_GROWTH * periods ** 3);
	}

	/**
	 * Back to work after an idle spell. A minute or more forgets the quota: the next burst learns it
	 * again. A shorter one leaves the hold and the curve where they were (probe counts no unused time).
	 */
	private resumeAfterIdle(now: number): void {
		const idleSinceMs = this.idleSinceMs;
		if (idleSinceMs === undefined) return;
		this.idleSinceMs = undefined;
		if (this.adaptiveIntervalMs === 0) return;
		if (now - idleSinceMs >= FORGET_MS) {
			this.adaptiveIntervalMs = 0;
			this.holdMs = 0;
			this.window.reset();
		}
	}

	private noteIdle(): void {
		this.idleSinceMs = this.busy ? undefined : this.clock.now();
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

/**
 * How many requests of one account an n8n process keeps in flight (the pacer's window, shared by
 * every execution). It follows the answers, as TCP's congestion window follows the network:
 *
 * - It grows only while it is what holds requests back (it was full when a request ended) and the
 *   answers say more would help: +1 per round trip during the first second (a quota per second shows
 *   itself within it, and a window that doubled meanwhile would overshoot it by as many 429s as the
 *   quota is large), then +1 per answer, so it doubles every round trip, until the first sign of
 *   overload, then +1 per round trip again.
 * - It never exceeds twice what the answers show is needed: the best rate at which answers came
 *   back (over the last seconds) times the quickest round trip (over the last 20 to 40 s), which is
 *   how many requests the API and n8n can work on at once. More would only queue, in the API or in
 *   n8n's own event loop, and make every answer later. When answers slow down, the rate falls and
 *   the window follows it down, by a tenth per round trip, but not below where it started.
 * - A 429, a 503, a timeout or a failed connection halves it (once per round trip: the answers of
 *   one round trip report one overload).
 *
 * The best rate and the quickest round trip are extremes, not averages, so answers delayed by
 * other work on the machine do not shrink the window: only a lasting change does.
 */

/** Requests in flight at first: a burst of executions against an unknown quota overshoots by about this many 429s. */
export const INITIAL_WINDOW = 10;
/** The ceiling of the automatic window; a run's Max Concurrent Requests can set a lower one. */
export const MAX_WINDOW = 64;
const MIN_WINDOW = 1;
/** The first second after the start: +1 per round trip only. */
const CAREFUL_MS = 1_000;
/** The window is at most this many times the requests the API and n8n work on at once (one more round trip of queue). */
const NEEDED_GAIN = 2;
/** The share kept per round trip when the window is above what is needed; after an overload: half. */
const SLOW_DECREASE = 0.9;
const OVERLOAD_DECREASE = 0.5;
/** The best answer rate is kept per period of this length, over the current and the previous one. */
const RATE_PERIOD_MS = 2_000;
/** The quickest round trip likewise. */
const RTT_PERIOD_MS = 20_000;

/** The best sample (largest or smallest, by `pick`) of the current and the previous period: a windowed maximum or minimum. */
class BestOfRecent {
	private current: number;
	private previous: number;
	private since = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly periodMs: number,
		private readonly pick: (a: number, b: number) => number,
		private readonly none: number,
	) {
		this.current = none;
		this.previous = none;
	}

	add(value: number, now: number): void {
		if (now - this.since >= this.periodMs) {
			this.previous = now - this.since >= 2 * this.periodMs ? this.none : this.current;
			this.current = this.none;
			this.since = now;
		}
		this.current = this.pick(this.current, value);
	}

	get value(): number {
		return this.pick(this.current, this.previous);
	}
}

/** What one answered request tells the window. */
export interface ResponseTiming {
	/** From admission to answer. */
	rttMs: number;
	/** Requests answered (by anyone) while this one was under way, per second: the rate the API and n8n deliver. */
	deliveryRate: number;
	/** The window was full when this request ended: it was what held requests back. */
	full: boolean;
}

export class ConcurrencyWindow {
	private size = INITIAL_WINDOW;
	/** Below it the window doubles per round trip; above it, +1 per round trip. */
	private threshold = Number.POSITIVE_INFINITY;
	private readonly bestRate = new BestOfRecent(RATE_PERIOD_MS, Math.max, 0);
	private readonly quickestRtt = new BestOfRecent(
		RTT_PERIOD_MS,
		Math.min,
		Number.POSITIVE_INFINITY,
	);
	private lastDecreaseMs = Number.NEGATIVE_INFINITY;
	/** The first answer since the start (or the last reset). */
	private startedMs: number | undefined;

	/** Requests that may be in flight now. */
	get limit(): number {
		return Math.floor(this.size);
	}

	/** A request answered: a success, or an answer the operation accepts. */
	answered(answer: ResponseTiming, now: number): void {
		this.startedMs ??= now;
		this.bestRate.add(answer.deliveryRate, now);
		this.quickestRtt.add(answer.rttMs, now);
		// The first answers wait for the token and n8n's warm-up: their rates say little. Growth is slow then anyway.
		const careful = now - this.startedMs < CAREFUL_MS;
		const needed = careful
			? MAX_WINDOW
			: Math.max(
					INITIAL_WINDOW,
					Math.round(NEEDED_GAIN * (this.bestRate.value / 1000) * this.quickestRtt.value),
				);
		if (this.size > needed) {
			this.decrease(Math.max(needed, this.size * SLOW_DECREASE), answer.rttMs, now);
			return;
		}
		if (!answer.full) return;
		const doubling = this.size < this.threshold && !careful;
		this.size = Math.min(MAX_WINDOW, needed, this.size + (doubling ? 1 : 1 / this.size));
	}

	/** A 429, a 503, a timeout or a failed connection; `rttMs`: how long that request took. */
	overloaded(rttMs: number, now: number): void {
		this.decrease(Math.max(MIN_WINDOW, this.size * OVERLOAD_DECREASE), rttMs, now);
	}

	/** Back to the start: the account's quota has been forgotten. */
	reset(): void {
		this.size = INITIAL_WINDOW;
		this.threshold = Number.POSITIVE_INFINITY;
		this.startedMs = undefined;
	}

	/** At most once per round trip of the request that reports it: the others of its round trip say the same. */
	private decrease(to: number, rttMs: number, now: number): void {
		if (now - rttMs < this.lastDecreaseMs) return;
		this.lastDecreaseMs = now;
		this.size = to;
		this.threshold = to;
	}
}

import { type ResponseTiming, ConcurrencyWindow, INITIAL_WINDOW, MAX_WINDOW } from '../../nodes/shared/transport/concurrency-window';

/**
 * The window's rule, replayed round trip by round trip: in each, as many requests as the window
 * allows (or `requests`, if fewer) are answered after `rttMs`, and the API delivers at most `capacity`
 * answers per second (unlimited by default). Times are made up; nothing waits.
 */
class Replay {
	readonly window = new ConcurrencyWindow();
	now = 0;

	roundTrips(count: number, { rttMs = 50, capacity = Number.POSITIVE_INFINITY, requests = Number.POSITIVE_INFINITY } = {}): number[] {
		const limits: number[] = [];
		for (let i = 0; i < count; i++) {
			const inFlight = Math.min(this.window.limit, requests);
			limits.push(inFlight);
			this.now += rttMs;
			const deliveryRate = Math.min(capacity, (inFlight * 1000) / rttMs);
			// Full: the window, not the number of requests, held requests back in this round trip.
			const answer: ResponseTiming = { rttMs, deliveryRate, full: inFlight < requests };
			for (let answered = 0; answered < inFlight; answered++) this.window.answered(answer, this.now);
		}
		return limits;
	}

	/** Until `ms` have passed. */
	for(ms: number, options: Parameters<Replay['roundTrips']>[1] = {}): number[] {
		return this.roundTrips(Math.ceil(ms / (options.rttMs ?? 50)), options);
	}
}

describe('concurrency window (the requests of one account in flight in an n8n process)', () => {
	it('grows by one per round trip during the first second, then doubles per round trip up to the ceiling', () => {
		const replay = new Replay();
		const firstSecond = replay.for(1000);
		expect(firstSecond[0]).toBe(INITIAL_WINDOW);
		expect(firstSecond.slice(1).every((limit, i) => limit - firstSecond[i] <= 1)).toBe(true);
		expect(firstSecond[19]).toBeGreaterThanOrEqual(2 * INITIAL_WINDOW + 5);
		const after = replay.roundTrips(3);
		expect(after[1]).toBeGreaterThanOrEqual(2 * after[0] - 1);
		expect(after[2]).toBe(MAX_WINDOW);
		expect(replay.roundTrips(10).every((limit) => limit === MAX_WINDOW)).toBe(true);
	});

	it('does not grow while fewer requests than it allows are in flight', () => {
		const replay = new Replay();
		replay.for(5000, { requests: 5 });
		expect(replay.window.limit).toBe(INITIAL_WINDOW);
	});

	it('stops at twice the requests the API works on at once: its answer rate times the quickest round trip', () => {
		// 200 answers per second at 50 ms: 10 requests keep it busy; 20 allow one round trip of queue.
		const replay = new Replay();
		replay.for(5000, { capacity: 200 });
		expect(replay.window.limit).toBe(20);
	});

	it('follows slower answers down by a tenth per round trip, but not below where it started', () => {
		const replay = new Replay();
		replay.for(3000);
		expect(replay.window.limit).toBe(MAX_WINDOW);
		// The API now answers after 500 ms and delivers 40 per second: the old best rate ages out within 4 s.
		const slower = replay.for(15_000, { rttMs: 500, capacity: 40 });
		expect(slower.slice(1).every((limit, i) => limit <= slower[i] && limit >= Math.floor(slower[i] * 0.9))).toBe(true);
		expect(replay.window.limit).toBe(INITIAL_WINDOW);
	});

	it('halves on overload, once per round trip, then grows by one per round trip', () => {
		const replay = new Replay();
		replay.for(3000);
		for (let i = 0; i < 20; i++) replay.window.overloaded(50, replay.now);
		expect(replay.window.limit).toBe(MAX_WINDOW / 2);
		replay.now += 50;
		replay.window.overloaded(50, replay.now);
		expect(replay.window.limit).toBe(MAX_WINDOW / 4);
		expect(replay.roundTrips(3)).toEqual([16, 16, 17]);
	});

	it('never goes below one request, and starts over when reset', () => {
		const replay = new Replay();
		for (let i = 0; i < 20; i++) {
			replay.now += 50;
			replay.window.overloaded(50, replay.now);
		}
		expect(replay.window.limit).toBe(1);
		replay.window.reset();
		expect(replay.window.limit).toBe(INITIAL_WINDOW);
		const again = replay.for(1000);
		expect(again.slice(1).every((limit, i) => limit - again[i] <= 1)).toBe(true);
	});
});

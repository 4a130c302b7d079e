/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import type { Pace } from '../../nodes/shared/transport/classify';
import { INITIAL_WINDOW } from '../../nodes/shared/transport/concurrency-window';
import { type Admission, type Clock, Pacer } from '../../nodes/shared/transport/pacing';

/** A clock that only moves when a waiter sleeps: every wait is exact and the test takes no real time. */
class FakeClock implements Clock {
	private t = 1_000_000;
	now(): number {
		return this.t;
	}
	async sleep(ms: number): Promise<void> {
		const wakeAt = this.t + ms;
		await Promise.resolve();
		this.t = Math.max(this.t, wakeAt);
	}
	advance(ms: number): void {
		this.t += ms;
	}
}

/** Sends `count` requests one after another and returns when each went out. */
async function sendTimes(pacer: Pacer, clock: FakeClock, count: number, maxRequestsPerSecond = 0): Promise<number[]> {
	const times: number[] = [];
	for (let i = 0; i < count; i++) {
		const admission = await pacer.admit(maxRequestsPerSecond);
		times.push(clock.now());
		pacer.settle(admission, DELIVERED);
	}
	return times;
}

const DELIVERED: Pace = { delivered: true };

/** The end of a request that taught the pacer nothing (its admission is not read). */
const release = (pacer: Pacer, admission: Admission = { atMs: 0, delivered: 0 }) => pacer.settle(admission, {});

/** An admission of a request sent 50 ms ago, for reporting its answer. */
const sentBefore = (clock: FakeClock): Admission => ({ atMs: clock.now() - 50, delivered: 0 });

/** Lets every caller that can go on run until it waits again (macrotask: all promise jobs done). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('Pacer', () => {
	let clock: FakeClock;
	let pacer: Pacer;
	beforeEach(() => {
		clock = new FakeClock();
		pacer = new Pacer(clock);
	});

	/** `accepted` answers delivered in the last second, then a 429 asking for `retryMs`. */
	const learn = (accepted: number, retryMs = 1000) => {
		for (let i = 0; i < accepted; i++) pacer.settle(sentBefore(clock), DELIVERED);
		pacer.settle(sentBefore(clock), { rateLimitedMs: retryMs });
	};

	it('spaces requests evenly under a fixed quota', async () => {
		const times = await sendTimes(pacer, clock, 6, 50);
		expect(gaps(times)).toEqual([20, 20, 20, 20, 20]);
	});

	it("keeps its pace when every timer fires a millisecond late, as the event loop's do, without a burst", async () => {
		const sendingWithTimersLate = async (lateMs: number) => {
			const late = new FakeClock();
			const latePacer = new Pacer({ now: () => late.now(), sleep: async (ms) => late.sleep(ms).then(() => late.advance(lateMs)) });
			for (let i = 0; i < 100; i++) latePacer.settle(sentBefore(late), DELIVERED);
			latePacer.settle(sentBefore(late), { rateLimitedMs: 1000 });
			const times = await sendTimes(latePacer, late, 500);
			return { ms: times.at(-1)! - times[0], shortestGap: Math.min(...gaps(times)) };
		};
		const exact = await sendingWithTimersLate(0);
		const late = await sendingWithTimersLate(1);
		// Counted from each late wake-up, the 10.3 ms intervals of 97 requests/s would be 11.3 ms: 9 % slower.
		expect(late.ms).toBeLessThan(exact.ms * 1.01);
		expect(late.shortestGap).toBeGreaterThan(exact.shortestGap / 2);
	});

	it('is unthrottled until the first 429', async () => {
		const times = await sendTimes(pacer, clock, 20);
		expect(times[19] - times[0]).toBe(0);
		expect(pacer.rate).toBe(Number.POSITIVE_INFINITY);
	});

	it('bounds the requests in flight of all callers by the window: the others wait for room, in turn', async () => {
		const inFlight: Array<{ admission: Admission; answer: () => void }> = [];
		const callers = Array.from({ length: 60 }, async () => {
			const admission = await pacer.admit();
			await new Promise<void>((answer) => inFlight.push({ admission, answer }));
		});
		const rounds: number[] = [];
		// Round trips of 50 ms: the requests in flight are answered one by one, and each time a waiting
		// caller takes the room (answered in the next round trip).
		await settle();
		while (inFlight.length) {
			rounds.push(inFlight.length);
			clock.advance(50);
			for (const { admission, answer } of inFlight.splice(0)) {
				expect(pacer.inFlight).toBeLessThanOrEqual(pacer.inFlightWindow);
				pacer.settle(admission, DELIVERED);
				answer();
				await settle();
			}
		}
		await Promise.all(callers);
		// The initial window at first; it was full at every answer, so it grew, by one per round trip at most.
		expect(rounds[0]).toBe(INITIAL_WINDOW);
		expect(rounds.slice(1, -1).every((n, i) => n >= rounds[i] && n <= rounds[i] + 1)).toBe(true);
		expect(rounds.at(-2)).toBeGreaterThan(INITIAL_WINDOW);
	});

	it('a run that never fills the window does not make it grow', async () => {
		for (let i = 0; i < 200; i++) {
			const admissions = [];
			for (let c = 0; c < INITIAL_WINDOW - 1; c++) admissions.push(await pacer.admit());
			clock.advance(50);
			for (const admission of admissions) {
				pacer.settle(admission, DELIVERED);
			}
		}
		expect(pacer.inFlightWindow).toBe(INITIAL_WINDOW);
	});

	it('Max Requests per Second spaces the requests; the window still bounds how many are in flight', async () => {
		const admitted = Array.from({ length: INITIAL_WINDOW + 2 }, () => pacer.admit(1000).then(() => clock.now()));
		await settle();
		expect(pacer.inFlight).toBe(INITIAL_WINDOW);
		release(pacer);
		release(pacer);
		const times = await Promise.all(admitted);
		expect(pacer.inFlight).toBe(INITIAL_WINDOW);
		expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(1);
	});

	it('a 429 halves the window and pauses everybody; then the learnt pace holds requests back', async () => {
		const first = await Promise.all(Array.from({ length: INITIAL_WINDOW }, () => pacer.admit()));
		const waiting = Array.from({ length: 15 }, async () => {
			await pacer.admit();
			const at = clock.now();
			release(pacer);
			return at;
		});
		await settle();
		expect(pacer.inFlight).toBe(INITIAL_WINDOW);
		clock.advance(50);
		const [limited, ...accepted] = first;
		for (const admission of accepted) {
			pacer.settle(admission, DELIVERED);
		}
		pacer.settle(limited, { rateLimitedMs: 1000 });
		expect(pacer.inFlightWindow).toBe(Math.floor(INITIAL_WINDOW / 2));
		const pausedAt = clock.now();
		const times = await Promise.all(waiting);
		expect(Math.min(...times)).toBeGreaterThanOrEqual(pausedAt + 1000);
		// Paced at 97 % of what the API accepted in the last second.
		expect(gaps(times.sort((a, b) => a - b))[0]).toBeGreaterThanOrEqual(Math.floor(1000 / (accepted.length * 0.97)));
	});

	it('starts slow again once it has forgotten the quota', async () => {
		await sendTimes(pacer, clock, 5);
		learn(0);
		clock.advance(61_000);
		await pacer.admit();
		release(pacer);
		expect(pacer.rate).toBe(Number.POSITIVE_INFINITY);
		expect(pacer.inFlightWindow).toBe(INITIAL_WINDOW);
	});

	it('pauses everybody until Retry-After, then paces below the accepted rate', async () => {
		learn(10);
		const start = clock.now();
		release(pacer, await pacer.admit());
		expect(clock.now() - start).toBe(1000);
		// 10 accepted in the last second -> 9.7 req/s
		expect(pacer.rate).toBeCloseTo(9.7, 5);
		const next = clock.now();
		await pacer.admit();
		expect(clock.now() - next).toBeCloseTo(1000 / 9.7, 5);
	});

	it('learns the first pace from up to two seconds of answers: answers that a busy n8n handled late and together do not make it faster than the quota', () => {
		// The API accepted 100 a second; n8n handled 80 answers in the first second and the other 20 with the next 100.
		const answerOver = (count: number, ms: number) => {
			for (let i = 0; i < count; i++) {
				pacer.settle(sentBefore(clock), DELIVERED);
				clock.advance(ms / count);
			}
		};
		answerOver(80, 1000);
		answerOver(120, 1000);
		pacer.settle(sentBefore(clock), { rateLimitedMs: 1000 });
		// Counted over the last second alone: 0.97 x 120 = 116.4 requests/s.
		expect(pacer.rate).toBeCloseTo(97, 0);
	});

	it('treats the 429s of one burst as one signal', async () => {
		for (let i = 0; i < 20; i++) pacer.settle(sentBefore(clock), DELIVERED);
		for (let i = 0; i < 5; i++) pacer.settle(sentBefore(clock), { rateLimitedMs: 1000 });
		expect(pacer.rate).toBeCloseTo(19.4, 5);
		expect(pacer.rateLimits).toBe(5);
	});

	it('cuts again on a 429 after the pause: the new pace was still too fast', async () => {
		learn(20);
		expect(pacer.rate).toBeCloseTo(19.4, 5);
		clock.advance(1_100);
		learn(10);
		// The rate is counted over the last 20 answers: 20 in 1.1 s, 18.2 req/s -> 17.6 req/s.
		expect(pacer.rate).toBeCloseTo(((20 * 1000) / 1100) * 0.97, 5);
		expect(pacer.rateLimits).toBe(2);
	});

	/** A pace learnt from a first 429, then a second 429 with a short Retry-After (its wait: a second). */
	const learnTwice = () => {
		learn(20); // the first: a pause, the pace learnt
		clock.advance(5_000);
		learn(20);
	};

	/** How long the next request waits to be admitted. */
	const waitOfNext = async () => {
		const start = clock.now();
		release(pacer, await pacer.admit());
		return clock.now() - start;
	};

	it('after a short Retry-After only the refused request waits: the others go on at the lower pace', async () => {
		learnTwice();
		expect(await waitOfNext()).toBeLessThan(100);
		expect(pacer.rate).toBeLessThan(20);
	});

	it('pauses every request when most of what it sends during a short Retry-After is refused too (a limiter that counts refusals)', async () => {
		learnTwice();
		// Sent after that 429 came back: one accepted, then refused: four times the pace goes on, the fifth
		// refusal (more than were accepted) pauses every request.
		const during = { atMs: clock.now() + 10, delivered: 0 };
		clock.advance(100);
		pacer.settle(during, DELIVERED);
		for (let i = 0; i < 4; i++) pacer.settle(during, { rateLimitedMs: 1000 });
		expect(await waitOfNext()).toBeLessThan(100);
		pacer.settle(during, { rateLimitedMs: 1000 });
		expect(await waitOfNext()).toBe(1000);
	});

	it('refusals of requests sent before the 429 came back (one bunch, one reason) pause nothing', async () => {
		learnTwice();
		// A busy event loop let ten requests go together before the first 429 was handled.
		for (let i = 0; i < 10; i++) pacer.settle(sentBefore(clock), { rateLimitedMs: 1000 });
		expect(await waitOfNext()).toBeLessThan(100);
	});

	it('a long Retry-After (a quota per minute) pauses every request, however well the pace is known', async () => {
		learn(20);
		clock.advance(5_000);
		learn(20, 60_000);
		const start = clock.now();
		const times = await sendTimes(pacer, clock, 3);
		expect(times[0] - start).toBe(60_000);
	});

	/** The pace after `ms` more of sending at it (each request answered at once, teaching nothing). */
	const rateAfter = async (ms: number) => {
		const end = clock.now() + ms;
		while (clock.now() < end) release(pacer, await pacer.admit());
		return pacer.rate;
	};

	it('climbs back along the cubic curve while it sends at its pace, past the pace that drew the 429', async () => {
		learn(20);
		expect(pacer.rate).toBeCloseTo(19.4, 5);
		release(pacer, await pacer.admit()); // after the 1 s pause
		// No hold after a first burst (it says little of this process's share): 19.4 + 0.1 t^3 at once.
		const climbFrom = clock.now();
		const curve = () => 19.4 + 0.1 * ((clock.now() - climbFrom) / 1000) ** 3;
		expect(await rateAfter(1_000)).toBeCloseTo(curve(), 5);
		expect(await rateAfter(1_000)).toBeCloseTo(curve(), 5);
		expect(await rateAfter(8_000)).toBeGreaterThan(60);
	});

	it('climbs only while its pace is used: an event loop stalled for 10 s does not come back sending 100 requests/s faster', async () => {
		let stallMs = 0;
		const stalling = new FakeClock();
		const stalled = new Pacer({ now: () => stalling.now(), sleep: (ms) => stalling.sleep(ms).then(() => stalling.advance(stallMs)) });
		for (let i = 0; i < 20; i++) stalled.settle(sentBefore(stalling), DELIVERED);
		stalled.settle(sentBefore(stalling), { rateLimitedMs: 1000 });
		await sendTimes(stalled, stalling, 40);
		const climbed = stalled.rate;
		stallMs = 10_000;
		await sendTimes(stalled, stalling, 1);
		stallMs = 0;
		await sendTimes(stalled, stalling, 1);
		// Counting the stall as climbing, the pace came back at 194 requests/s.
		expect(stalled.rate).toBeLessThan(climbed * 1.1);
	});

	it('holds below the share it found before it climbs again, longer each time it finds the same share; a 429 during the hold only steps the pace down', async () => {
		// A 429, then a request admitted at once, as a worker with requests waiting would.
		const learnBusy = async () => {
			learn(20);
			await pacer.admit();
		};
		await learnBusy(); // the first burst: after the 1 s pause, no hold
		clock.advance(3_000);
		await learnBusy(); // the climb ended with a 429 at the same 20 accepted: a hold of 2 s
		const held = pacer.rate;
		expect(await rateAfter(1_900)).toBeCloseTo(held, 5);
		expect(await rateAfter(1_000)).toBeGreaterThan(held);
		clock.advance(1_100);
		await learnBusy(); // again: 4 s
		const heldLonger = pacer.rate;
		expect(await rateAfter(3_900)).toBeCloseTo(heldLonger, 5);
		await learnBusy(); // during the hold: another process climbing
		expect(pacer.rate).toBeCloseTo(heldLonger * 0.97, 5);
		// The hold still ends 4 s after the last climb's 429.
		expect(await rateAfter(100)).toBeCloseTo(heldLonger * 0.97, 3);
		expect(await rateAfter(1_000)).toBeGreaterThan(heldLonger * 0.97);
	});

	it('the curve stands still while the pacer is idle; a minute idle forgets the pace', async () => {
		learn(20);
		// Nothing to send for 20 s (a worker between pages): it starts again at the pace it learnt, not
		// at the curve's 20 s point (about 500 requests/s, a burst of 429s).
		clock.advance(20_000);
		await pacer.admit();
		release(pacer);
		expect(pacer.rate).toBeCloseTo(19.4, 5);
		clock.advance(60_000);
		await pacer.admit();
		release(pacer);
		expect(pacer.rate).toBe(Number.POSITIVE_INFINITY);
	});

	it('counts requests in flight across callers', async () => {
		await pacer.admit();
		await pacer.admit();
		expect(pacer.inFlight).toBe(2);
		release(pacer);
		release(pacer);
		release(pacer);
		expect(pacer.inFlight).toBe(0);
	});
});

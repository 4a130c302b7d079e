/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import { classify, type Sendings } from '../../nodes/shared/transport/classify';
import { forEachBounded } from '../../nodes/shared/operation/bounded';
import { type Clock, Pacer } from '../../nodes/shared/transport/pacing';

/**
 * A deterministic model of n8n processes (queue-mode workers) sharing one account's quota: simulated
 * time, no network. Each process has its own Pacer; its executions send their items the way
 * run-operations.ts and transport.ts do (forEachBounded over the pacer's window; admit, send, classify,
 * settle, wait and retry), against an API that admits `quota` requests in any `windowMs` (the
 * emulator's sliding window, sandbox/limits.js) and answers the rest 429 with its Retry-After.
 */

/** Simulated time: a sleep resolves when the simulation reaches it, in order, taking no real time. */
export class SimulatedClock implements Clock {
	private t = 1_000_000;
	private seq = 0;
	private readonly timers: Array<{ at: number; seq: number; wake: () => void }> = [];

	now(): number {
		return this.t;
	}

	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) throw new Error('aborted');
		await new Promise<void>((wake) => this.push({ at: this.t + Math.max(0, ms), seq: this.seq++, wake }));
	}

	/** Runs every ready promise job, then the earliest timers, until nothing is left to do. */
	async run(): Promise<void> {
		for (;;) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			const first = this.pop();
			if (!first) return;
			this.t = Math.max(this.t, first.at);
			first.wake();
			while (this.timers.length && this.timers[0].at <= this.t) this.pop()!.wake();
		}
	}

	// A binary heap ordered by (at, seq): sleeps that end together wake in the order they began.
	private push(timer: { at: number; seq: number; wake: () => void }): void {
		const heap = this.timers;
		heap.push(timer);
		let i = heap.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!before(heap[i], heap[parent])) break;
			[heap[i], heap[parent]] = [heap[parent], heap[i]];
			i = parent;
		}
	}

	private pop(): { at: number; seq: number; wake: () => void } | undefined {
		const heap = this.timers;
		if (!heap.length) return undefined;
		const top = heap[0];
		const last = heap.pop()!;
		if (heap.length) {
			heap[0] = last;
			let i = 0;
			for (;;) {
				const l = 2 * i + 1;
				const r = l + 1;
				let m = i;
				if (l < heap.length && before(heap[l], heap[m])) m = l;
				if (r < heap.length && before(heap[r], heap[m])) m = r;
				if (m === i) break;
				[heap[i], heap[m]] = [heap[m], heap[i]];
				i = m;
			}
		}
		return top;
	}
}

const before = (a: { at: number; seq: number }, b: { at: number; seq: number }) =>
	a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** The API's quota: `quota` requests in any `windowMs`, as sandbox/limits.js counts them. */
class SlidingWindowQuota {
	private readonly admitted: number[] = [];
	private head = 0;

	constructor(
		private readonly quota: number,
		private readonly windowMs: number,
		private readonly retryAfterSeconds?: number,
	) {}

	/** undefined: admitted; otherwise the Retry-After header's seconds. */
	take(now: number): number | undefined {
		while (this.head < this.admitted.length && this.admitted[this.head] <= now - this.windowMs) this.head++;
		if (this.admitted.length - this.head < this.quota) {
			this.admitted.push(now);
			return undefined;
		}
		const oldest = this.admitted[this.head];
		return this.retryAfterSeconds ?? Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
	}
}

export interface SharedQuotaScenario {
	/** Requests the API admits per second, for all processes together. */
	quota: number;
	/** The quota's window; default 1 s. */
	windowMs?: number;
	/** A fixed Retry-After (seconds) instead of the sliding window's own. */
	retryAfterSeconds?: number;
	/** n8n processes (workers), each with its own pacer. */
	processes: number;
	/** The queue of executions, each a number of items, all queued at the start. */
	executions: number[];
	/** Executions one process runs at once (n8n's worker concurrency); default all. */
	concurrency?: number;
	/** When each process starts taking executions; default 7 ms apart. */
	startMs?: number[];
	/** A process takes the next execution this long after the previous one (queue pickup, workflow start). Default 20 ms. */
	pickupMs?: number;
	/** From admission to answer; the API counts the request halfway. Default 50 ms, spread by up to latencySpreadMs. */
	latencyMs?: number;
	latencySpreadMs?: number;
	/** A run's Max Requests per Second; default 0 (learnt). */
	maxRequestsPerSecond?: number;
	maxRetries?: number;
	seed?: number;
	/** Record, per second and process, the requests delivered and answered 429 (outcome.seconds). */
	timeline?: boolean;
}

export interface SharedQuotaOutcome {
	/** From the start until the last item was done. */
	elapsedMs: number;
	/** elapsedMs over the ideal: all items at the full quota. */
	ofIdeal: number;
	delivered: number;
	/** Sendings answered 429. */
	rateLimited: number;
	/** Items that failed (429 after every retry). */
	failed: number;
	/** Items each process sent. */
	itemsOf: number[];
	pacers: Pacer[];
	/** With `timeline`: per second, per process, [delivered, 429]. */
	seconds: Array<Array<[number, number]>>;
}

/** Deterministic numbers in [0, 1) (mulberry32). */
function randomFrom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Runs the scenario to the end, in simulated time. */
export async function simulateSharedQuota(scenario: SharedQuotaScenario): Promise<SharedQuotaOutcome> {
	const clock = new SimulatedClock();
	const api = new SlidingWindowQuota(scenario.quota, scenario.windowMs ?? 1000, scenario.retryAfterSeconds);
	const random = randomFrom(scenario.seed ?? 1);
	const latencyMs = scenario.latencyMs ?? 50;
	const spreadMs = scenario.latencySpreadMs ?? 0;
	const rules = { repeatable: true, maxRetries: scenario.maxRetries ?? 5 };
	const start = clock.now();
	let delivered = 0;
	let rateLimited = 0;
	let failed = 0;

	const seconds: Array<Array<[number, number]>> = [];
	const count = (p: number, kind: 0 | 1) => {
		if (!scenario.timeline) return;
		const second = Math.floor((clock.now() - start) / 1000);
		while (seconds.length <= second) seconds.push(Array.from({ length: scenario.processes }, () => [0, 0]));
		seconds[second][p][kind]++;
	};
	const sendItem = async (pacer: Pacer, p: number): Promise<void> => {
		const sendings: Sendings = { sent: 0, timeouts: 0, renewed: false, cancelled: false, now: 0, jitter: 0.5 };
		for (;;) {
			const admission = await pacer.admit(scenario.maxRequestsPerSecond ?? 0);
			sendings.sent++;
			const tripMs = latencyMs + spreadMs * random();
			await clock.sleep(tripMs / 2);
			const retryAfter = api.take(clock.now());
			await clock.sleep(tripMs / 2);
			if (retryAfter !== undefined) rateLimited++;
			count(p, retryAfter === undefined ? 0 : 1);
			const response =
				retryAfter === undefined
					? { statusCode: 200, headers: {}, body: {} }
					: { statusCode: 429, headers: { 'retry-after': String(retryAfter) }, body: { message: 'Rate limit exceeded' } };
			sendings.now = clock.now();
			sendings.jitter = random();
			const verdict = classify({ kind: 'response', response }, sendings, rules);
			pacer.settle(admission, verdict.pace);
			if (verdict.next === 'ok') {
				delivered++;
				return;
			}
			if (verdict.next !== 'retry') {
				failed++;
				return;
			}
			await clock.sleep(verdict.afterMs);
		}
	};

	const pacers = Array.from({ length: scenario.processes }, () => new Pacer(clock));
	const itemsOf = pacers.map(() => 0);
	const queue = [...scenario.executions];
	const runExecution = async (p: number, items: number) => {
		itemsOf[p] += items;
		const pacer = pacers[p];
		await forEachBounded(
			Array.from({ length: items }, (_, i) => i),
			() => pacer.inFlightWindow,
			() => sendItem(pacer, p),
		);
	};
	// A worker slot takes the next execution from the queue whenever it is free.
	const slot = async (p: number, s: number) => {
		await clock.sleep(s * (scenario.pickupMs ?? 20) + (scenario.startMs?.[p] ?? p * 7));
		for (let items = queue.shift(); items !== undefined; items = queue.shift()) {
			await runExecution(p, items);
			await clock.sleep(scenario.pickupMs ?? 20);
		}
	};
	const concurrency = scenario.concurrency ?? scenario.executions.length;
	const slots = pacers.flatMap((_, p) => Array.from({ length: concurrency }, (_, s) => slot(p, s)));
	let elapsedMs = 0;
	const done = Promise.all(slots.map((s) => s.then(() => (elapsedMs = Math.max(elapsedMs, clock.now() - start)))));
	await clock.run();
	await done;
	const items = scenario.executions.reduce((a, b) => a + b, 0);
	return {
		elapsedMs,
		ofIdeal: elapsedMs / ((items * 1000) / scenario.quota),
		delivered,
		rateLimited,
		failed,
		itemsOf,
		pacers,
		seconds,
	};
}

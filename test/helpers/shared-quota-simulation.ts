/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import { classify, type Sendings } from '../../nodes/shared/transport/classify';
import { forEachBounded } from '../../nodes/shared/operation/bounded';
import { type Clock, Pacer } from '../../nodes/shared/transport/pacing';

/**
 * A deterministic model of n8n processes (queue-mode workers) sharing one account's quota: simulated
 * time, no network. Each process has its own Pacer; its executions send their items the way
 * run-operations.ts and transport.ts do (forEachBounded over the pacer's window; admit, send, classify,
 * settle, wait and retry), against an API that admits `quota` requests a second, counted as the
 * scenario's limiter counts them (sandbox/rate-limiters.js), and answers the rest 429 with its Retry-After.
 */

/** Simulated time: a sleep resolves when the simulation reaches it, in order, taking no real time. */
class SimulatedClock implements Clock {
	private t = 1_000_000;
	/** Ordered by wake time; sleeps that end together wake in the order they began. */
	private readonly timers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.t;
	}

	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) throw new Error('aborted');
		const at = this.t + Math.max(0, ms);
		await new Promise<void>((wake) => {
			let i = this.timers.length;
			while (i > 0 && this.timers[i - 1].at > at) i--;
			this.timers.splice(i, 0, { at, wake });
		});
	}

	/** Runs every ready promise job, then the earliest timers, until nothing is left to do. */
	async run(): Promise<void> {
		for (;;) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			const first = this.timers.shift();
			if (!first) return;
			this.t = Math.max(this.t, first.at);
			first.wake();
			while (this.timers.length && this.timers[0].at <= this.t) this.timers.shift()!.wake();
		}
	}
}

/** The gateway's limiters, as the emulator runs them: take() is undefined (admitted) or the Retry-After in seconds. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { createRateLimiter } = require('../../sandbox/rate-limiters') as {
	createRateLimiter: (limit: { requestsPerSecond: number } & RateLimiterKind) => { take(nowMs: number): number | undefined };
};

/** How the gateway counts the quota (sandbox/rate-limiters.js); default: a sliding second over admitted requests. */
export interface RateLimiterKind {
	kind?: 'sliding' | 'fixed' | 'bucket';
	countRefused?: boolean;
	burst?: number;
}

interface SharedQuotaScenario {
	/** Requests the API admits per second, for all processes together. */
	quota: number;
	limiter?: RateLimiterKind;
	/** n8n processes (workers), each with its own pacer. */
	processes: number;
	/** The queue of executions, each a number of items, all queued at the start. */
	executions: number[];
	/** Executions one process runs at once (n8n's worker concurrency); default all. */
	concurrency?: number;
	/** When each process starts taking executions; default 7 ms apart. */
	startMs?: number[];
	/** From admission to answer; the API counts the request halfway. Spread by up to latencySpreadMs. */
	latencyMs: number;
	latencySpreadMs: number;
	/** From taking an execution to its first request (n8n starting it, the node reading its items); default 0. */
	pageStartMs?: number;
	seed?: number;
	/** A busy n8n: its event loop stalls now and then (mean gap, longest stall), and what it admitted meanwhile leaves at once when the stall ends. */
	stalls?: { everyMs: number; maxMs: number };
	/** Each process's Max Requests per Second (the node option); default 0, unknown. */
	maxRequestsPerSecond?: number;
}

/**
 * Why a request was answered 429, judged when it was admitted:
 * - unknownQuota: its process had no pace yet (the first burst, or after forgetting);
 * - pastRefusal: its process paced faster than when it last drew a 429 (the climb overshooting);
 * - together: its process was below that, but the processes' paces added up to more than the quota;
 * - jitter: the paces added up to the quota or less, yet the API's window held more (latency spread, a resend).
 */
export type RefusalCause = 'unknownQuota' | 'pastRefusal' | 'together' | 'jitter';

interface SharedQuotaOutcome {
	/** From the start until the last item was done, over the ideal: all items at the full quota. */
	ofIdeal: number;
	elapsedMs: number;
	delivered: number;
	/** Requests sent, resends included. */
	sent: number;
	/** Sendings answered 429. */
	rateLimited: number;
	/** The same, by cause. */
	causes: Record<RefusalCause, number>;
	/** Items that failed (429 after every retry). */
	failed: number;
	pacers: Pacer[];
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

/**
 * The customer book as bench/ runs it: 10,000 customers in pages of 500, each worker running 5 pages at
 * once, every page starting 500 ms after it is taken (n8n starting the execution, the node reading its rows).
 */
export function customerBook(processes: number, quota = 50) {
	return { quota, processes, concurrency: 5, executions: Array.from({ length: 20 }, () => 500), pageStartMs: 500 };
}

/** A process takes the next execution this long after the previous one (queue pickup, workflow start). */
const PICKUP_MS = 20;

/** Runs the scenario to the end, in simulated time. */
export async function simulateSharedQuota(scenario: SharedQuotaScenario): Promise<SharedQuotaOutcome> {
	const clock = new SimulatedClock();
	const api = createRateLimiter({ requestsPerSecond: scenario.quota, ...scenario.limiter });
	const random = randomFrom(scenario.seed ?? 1);
	const rules = { repeatable: true, maxRetries: 5 };
	const start = clock.now();
	let delivered = 0;
	let rateLimited = 0;
	let failed = 0;
	let sent = 0;
	const causes: Record<RefusalCause, number> = { unknownQuota: 0, pastRefusal: 0, together: 0, jitter: 0 };
	const pacers = Array.from({ length: scenario.processes }, () => new Pacer(clock));
	/** Per process: its pace when it last sent a request answered 429. */
	const refusedRates = new Map<Pacer, number>();
	const causeAtAdmission = (pacer: Pacer): RefusalCause => {
		const rate = pacer.rate;
		if (!Number.isFinite(rate)) return 'unknownQuota';
		if (rate > (refusedRates.get(pacer) ?? Number.POSITIVE_INFINITY)) return 'pastRefusal';
		const together = pacers.reduce((sum, other) => sum + (other.busy ? other.rate : 0), 0);
		return together > scenario.quota ? 'together' : 'jitter';
	};

	const stallOf = new Map<Pacer, { from: number; to: number }>();
	/** How long a request admitted now waits for its process's event loop. */
	const stallLeft = (pacer: Pacer): number => {
		if (!scenario.stalls) return 0;
		const now = clock.now();
		let stall = stallOf.get(pacer) ?? { from: now, to: now };
		while (stall.to <= now) {
			const from = stall.to + -Math.log(1 - random()) * scenario.stalls.everyMs;
			stall = { from, to: from + random() * scenario.stalls.maxMs };
		}
		stallOf.set(pacer, stall);
		return now >= stall.from ? stall.to - now : 0;
	};

	const sendItem = async (pacer: Pacer): Promise<void> => {
		const sendings: Sendings = { sent: 0, timeouts: 0, renewed: false, cancelled: false, now: 0, jitter: 0.5 };
		for (;;) {
			const admission = await pacer.admit(scenario.maxRequestsPerSecond ?? 0);
			const rateAtAdmission = pacer.rate;
			const cause = causeAtAdmission(pacer);
			sendings.sent++;
			sent++;
			const tripMs = scenario.latencyMs + scenario.latencySpreadMs * random();
			await clock.sleep(stallLeft(pacer));
			await clock.sleep(tripMs / 2);
			const retryAfter = api.take(clock.now());
			await clock.sleep(tripMs / 2);
			if (retryAfter !== undefined) {
				rateLimited++;
				causes[cause]++;
				refusedRates.set(pacer, rateAtAdmission);
			}
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

	const queue = [...scenario.executions];
	// A worker slot takes the next execution from the queue whenever it is free.
	const slot = async (pacer: Pacer, p: number, s: number) => {
		await clock.sleep(s * PICKUP_MS + (scenario.startMs?.[p] ?? p * 7));
		for (let items = queue.shift(); items !== undefined; items = queue.shift()) {
			await clock.sleep(scenario.pageStartMs ?? 0);
			await forEachBounded(
				Array.from({ length: items }, (_, i) => i),
				() => pacer.inFlightWindow,
				() => sendItem(pacer),
			);
			await clock.sleep(PICKUP_MS);
		}
	};
	const concurrency = scenario.concurrency ?? scenario.executions.length;
	const slots = pacers.flatMap((pacer, p) => Array.from({ length: concurrency }, (_, s) => slot(pacer, p, s)));
	let elapsedMs = 0;
	const done = Promise.all(slots.map((s) => s.then(() => (elapsedMs = Math.max(elapsedMs, clock.now() - start)))));
	await clock.run();
	await done;
	const items = scenario.executions.reduce((a, b) => a + b, 0);
	return { ofIdeal: elapsedMs / ((items * 1000) / scenario.quota), elapsedMs, delivered, sent, rateLimited, causes, failed, pacers };
}

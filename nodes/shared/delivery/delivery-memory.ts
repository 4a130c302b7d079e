import { type IWebhookFunctions, sleep } from 'n8n-workflow';

/**
 * The duplicate memory of the webhook triggers (both sources of the IDCanopy Umbrella Trigger):
 * what a provider that resends a delivery must not start twice.
 *
 * Per trigger scope, duplicate key -> time of the last copy (epoch ms), oldest first (Map keeps
 * insertion order; a refreshed key moves to the end), in this n8n process's memory only. A key is
 * kept for the whole window, whatever the number of deliveries: the bound is time (plus
 * MAX_KEYS_PER_SCOPE, a guard against a runaway sender far above any provider's volume).
 *
 * Why in memory and nowhere else: a webhook() of a community node reaches no store that n8n shares
 * between processes. n8n's deduplication helpers (`checkProcessedAndRecord`, the Remove Duplicates
 * node's storage) are given to execute contexts only, not to the webhook context; the workflow's
 * static data is one JSON blob per workflow, read when a request arrives and written back whole
 * after it, last writer wins, so copies arriving together all pass, and rewriting a blob that grows
 * with every delivery is what made n8n fail under a flood of deliveries. The memory is therefore
 * per process: a restart forgets it, and two n8n webhook processes (queue mode) each keep their own.
 *
 * A claim is pending until the delivery's answer is sent: kept when it was a 2xx (the provider will
 * not send the delivery again), dropped otherwise (the provider resends it; that copy must start
 * the workflow). A copy that arrives while a claim is pending waits for it (see `settled`).
 */

/** Most keys kept per trigger: about 160 MB (measured); 11 keys a second for 25 hours. */
export const MAX_KEYS_PER_SCOPE = 1_000_000;
/**
 * A claim whose request got neither an answer nor a close for this long counts as kept: n8n is
 * stuck on it, the execution may exist, and its copies are duplicates rather than 503s for ever.
 */
export const PENDING_MAX_MS = 60_000;
/** Upper bound of triggers (workflow, node, secret) remembered by this n8n process. */
const MAX_SCOPES = 1_000;

interface Memory {
	/** Duplicate key -> epoch ms of its last copy, oldest first. */
	seen: Map<string, number>;
	/** Duplicate key -> resolves (true: kept, false: dropped) once the claim holding it is settled; since when. */
	pending: Map<string, { settled: Promise<boolean>; since: number }>;
}

const memories = new Map<string, Memory>();

function memoryOf(scope: string): Memory {
	let memory = memories.get(scope);
	if (memory) {
		memories.delete(scope); // most recently used scope last
	} else {
		memory = { seen: new Map(), pending: new Map() };
		if (memories.size >= MAX_SCOPES) memories.delete(memories.keys().next().value!);
	}
	memories.set(scope, memory);
	return memory;
}

function prune(seen: Map<string, number>, windowMs: number, now: number): void {
	for (const [key, at] of seen) {
		if (at > now - windowMs && seen.size <= MAX_KEYS_PER_SCOPE) break;
		seen.delete(key);
	}
}

export type DeliveryClaim =
	| {
			duplicate: false;
			/** Keeps the record: the delivery was answered 2xx. */
			keep(): void;
			/** Drops the record: the delivery was not taken, so a resend must be accepted. */
			release(): void;
	  }
	| {
			duplicate: true;
			/** Set when the copy that holds the key is not answered yet: true once kept, false once dropped. */
			settled?: Promise<boolean>;
	  };

/**
 * Checks and records one delivery, synchronously (no await between the check and the record, so
 * copies arriving together are told apart). A delivery is a duplicate when any of its keys was seen
 * within the window; a new one records all its keys. A duplicate refreshes the keys it shares with a
 * settled claim, so a provider that keeps resending stays recognised.
 */
export function claimDelivery(
	scope: string,
	keys: string | readonly string[],
	windowMs: number,
	now = Date.now(),
): DeliveryClaim {
	const list = typeof keys === 'string' ? [keys] : [...new Set(keys)];
	const memory = memoryOf(scope);
	prune(memory.seen, windowMs, now);
	const held = list.map((key) => memory.pending.get(key)).find((claim) => claim !== undefined);
	if (held !== undefined && now - held.since < PENDING_MAX_MS)
		return { duplicate: true, settled: held.settled };
	if (list.some((key) => memory.seen.has(key))) {
		for (const key of list) {
			memory.seen.delete(key);
			memory.seen.set(key, now);
		}
		return { duplicate: true };
	}
	for (const key of list) {
		memory.seen.delete(key);
		memory.seen.set(key, now);
	}
	let settle!: (kept: boolean) => void;
	const settled = new Promise<boolean>((resolve) => (settle = resolve));
	const holder = { settled, since: now };
	for (const key of list) memory.pending.set(key, holder);
	let done = false;
	const finish = (kept: boolean) => {
		if (done) return;
		done = true;
		for (const key of list) {
			if (memory.pending.get(key) === holder) memory.pending.delete(key);
			if (!kept && memory.seen.get(key) === now) memory.seen.delete(key);
		}
		settle(kept);
	};
	return { duplicate: false, keep: () => finish(true), release: () => finish(false) };
}

/** Forgets everything this process remembers for a scope prefix ('' = all); for a new registration and tests. */
export function forgetDeliveries(scopePrefix = ''): void {
	for (const scope of [...memories.keys()])
		if (scope.startsWith(scopePrefix)) memories.delete(scope);
}

/** What an accepted delivery is answered with (n8n sends it once the execution exists). */
export const STARTED_RESPONSE = { received: true, started: true };

/**
 * Settles `claim` by the answer this request gets: kept when n8n answered 2xx, dropped when it
 * answered anything else (e.g. the 500 n8n 2.x sends when it could not create the execution). A
 * connection that closed before any answer keeps it: the execution may exist, and the provider's
 * resend is then answered as a duplicate instead of starting a second one.
 */
export function keepOrReleaseByResponse(
	context: IWebhookFunctions,
	claim: DeliveryClaim | undefined,
): void {
	if (!claim || claim.duplicate) return;
	const res = context.getResponseObject() as unknown as {
		statusCode?: number;
		writableFinished?: boolean;
		once?: (event: 'finish' | 'close', listener: () => void) => unknown;
	};
	if (typeof res.once !== 'function') {
		claim.keep();
		return;
	}
	res.once('finish', () => ((res.statusCode ?? 500) < 300 ? claim.keep() : claim.release()));
	res.once('close', () => {
		if (!res.writableFinished) claim.keep();
	});
}

/** How long a copy waits for the answer to the copy that holds its key. */
export const CLAIM_WAIT_MS = 5_000;

export type ClaimOutcome =
	| { claim: DeliveryClaim & { duplicate: false } }
	| { duplicate: true }
	| { undecided: true };

/**
 * claimDelivery(), and for a copy whose key another copy holds unanswered, the outcome of that copy
 * (waited for at most `waitMs`): taken -> a duplicate; dropped -> this copy claims it; still
 * unanswered -> `undecided` (answer it 5xx: the provider sends it again, and it is never started twice).
 */
export async function claimOrWait(
	scope: string,
	keys: string | readonly string[],
	windowMs: number,
	waitMs = CLAIM_WAIT_MS,
): Promise<ClaimOutcome> {
	const until = Date.now() + waitMs;
	for (;;) {
		const claim = claimDelivery(scope, keys, windowMs);
		if (!claim.duplicate) return { claim };
		if (!claim.settled) return { duplicate: true };
		const left = until - Date.now();
		const kept = left > 0 ? await waitFor(claim.settled, left) : undefined;
		if (kept === undefined) return { undecided: true };
		if (kept) return { duplicate: true };
	}
}

async function waitFor(settled: Promise<boolean>, ms: number): Promise<boolean | undefined> {
	const stopTimer = new AbortController();
	const late = sleep(ms, stopTimer.signal).then(
		() => undefined,
		() => undefined,
	);
	try {
		return await Promise.race([settled, late]);
	} finally {
		stopTimer.abort();
	}
}

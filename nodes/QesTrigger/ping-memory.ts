import type { RecentPings } from './static-data';

/** Upper bound of remembered pings per trigger, so static data stays small whatever the traffic. */
export const MAX_REMEMBERED_PINGS = 500;
/** Upper bound of triggers (workflow, node, registration) remembered by this n8n process. */
const MAX_SCOPES = 1_000;

/**
 * The duplicate memory of this n8n process: per trigger scope, duplicate key -> time of the last
 * copy (epoch ms), oldest first (Map keeps insertion order; a refreshed key moves to the end).
 *
 * Why in memory as well as in static data: n8n hands every request its own copy of the workflow's
 * static data, read from the database when the request arrives, and writes it back only after
 * webhook() returned. Copies that arrive together all read the same state, so only a check and
 * record in this process, with no await in between, lets exactly one of them through. Static data
 * carries the memory over an n8n restart (see receive.ts for when n8n saves it).
 */
const memories = new Map<string, Map<string, number>>();

function memoryOf(scope: string): Map<string, number> {
	let memory = memories.get(scope);
	if (memory) {
		memories.delete(scope); // most recently used scope last
	} else {
		memory = new Map();
		if (memories.size >= MAX_SCOPES) memories.delete(memories.keys().next().value!);
	}
	memories.set(scope, memory);
	return memory;
}

function prune(memory: Map<string, number>, windowMs: number, now: number): void {
	for (const [key, at] of memory) {
		if (at > now - windowMs && memory.size <= MAX_REMEMBERED_PINGS) break;
		memory.delete(key);
	}
}

/** Adds what static data remembers and this process does not (after a restart, or another n8n process). */
function merge(memory: Map<string, number>, persisted: RecentPings | undefined, windowMs: number, now: number): void {
	if (!persisted || typeof persisted !== 'object') return;
	let added = false;
	for (const [key, at] of Object.entries(persisted)) {
		if (typeof at !== 'number' || !(at > now - windowMs) || at > now) continue;
		const known = memory.get(key);
		if (known === undefined || known < at) {
			memory.set(key, at);
			added = true;
		}
	}
	if (added) {
		const sorted = [...memory].sort((a, b) => a[1] - b[1]);
		memory.clear();
		for (const [key, at] of sorted) memory.set(key, at);
	}
}

export interface PingClaim {
	/** True when the same key was seen within the window: answer, start nothing. */
	duplicate: boolean;
	/** Undoes the record of a first copy that could not be handled, so that a resend is accepted. */
	release(): void;
	/** The scope's memory as it should be stored in static data (bounded, newest last). */
	snapshot(): RecentPings;
}

/**
 * Checks and records one ping, synchronously. A duplicate refreshes the key's time, so a provider
 * that keeps resending stays recognised.
 */
export function claimPing(scope: string, key: string, windowMs: number, persisted: RecentPings | undefined, now = Date.now()): PingClaim {
	const memory = memoryOf(scope);
	merge(memory, persisted, windowMs, now);
	prune(memory, windowMs, now);
	const duplicate = memory.has(key);
	memory.delete(key);
	memory.set(key, now);
	prune(memory, windowMs, now);
	return {
		duplicate,
		release() {
			if (!duplicate && memory.get(key) === now) memory.delete(key);
		},
		snapshot: () => Object.fromEntries(memory),
	};
}

/** Forgets everything this process remembers for a scope prefix ('' = all); for a new registration and tests. */
export function forgetPings(scopePrefix = ''): void {
	for (const scope of [...memories.keys()]) if (scope.startsWith(scopePrefix)) memories.delete(scope);
}

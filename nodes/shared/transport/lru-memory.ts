/** How much a process-wide memory keeps: at most `maxEntries`, none unused for `idleMs` or longer. */
export interface MemoryLimits {
	maxEntries: number;
	idleMs: number;
}

/** How often at most the whole memory is looked through for entries to drop. */
const SWEEP_EVERY_MS = 1_000;

/**
 * A map for what an n8n process keeps per credential (tokens, pacers, signing secrets): each
 * credential version (a changed key or URL is a new one) adds an entry, so without bounds the map
 * grows for as long as the process runs, each entry holding its last secret. Entries are dropped when
 * unused for `idleMs`, or as soon as `spent` says they hold nothing worth keeping (an expired token);
 * beyond `maxEntries` the least recently used go first. An entry `inUse` says is busy (an exchange or
 * a request under way) is never dropped: its users would otherwise split into two.
 */
export class LruMemory<V> {
	private readonly entries = new Map<string, { value: V; usedAtMs: number }>();
	private sweptAtMs = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly limits: MemoryLimits,
		private readonly inUse: (value: V) => boolean = () => false,
		private readonly spent: (value: V, nowMs: number) => boolean = () => false,
	) {}

	/** The entry of `key`, now counted as used; undefined when absent or dropped. */
	get(key: string, nowMs = Date.now()): V | undefined {
		this.sweep(nowMs);
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		// Re-inserted so the map's order stays least recently used first.
		this.entries.delete(key);
		entry.usedAtMs = nowMs;
		this.entries.set(key, entry);
		return entry.value;
	}

	set(key: string, value: V, nowMs = Date.now()): void {
		this.entries.delete(key);
		this.entries.set(key, { value, usedAtMs: nowMs });
		this.evictOverflow();
	}

	/** The entry of `key`, made by `create` when absent. */
	obtain(key: string, create: () => V, nowMs = Date.now()): V {
		const found = this.get(key, nowMs);
		if (found !== undefined) return found;
		const value = create();
		this.set(key, value, nowMs);
		return value;
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	get size(): number {
		return this.entries.size;
	}

	private sweep(nowMs: number): void {
		if (nowMs - this.sweptAtMs < SWEEP_EVERY_MS) return;
		this.sweptAtMs = nowMs;
		for (const [key, entry] of this.entries) {
			if (this.inUse(entry.value)) continue;
			if (nowMs - entry.usedAtMs >= this.limits.idleMs || this.spent(entry.value, nowMs))
				this.entries.delete(key);
		}
	}

	private evictOverflow(): void {
		if (this.entries.size <= this.limits.maxEntries) return;
		for (const [key, entry] of this.entries) {
			if (this.entries.size <= this.limits.maxEntries) return;
			if (!this.inUse(entry.value)) this.entries.delete(key);
		}
	}
}

import { LruMemory, type MemoryLimits } from '../../shared/transport/lru-memory';

/**
 * Signing secrets as last read from their credential, per credential id, for SECRET_TTL_MS.
 *
 * Why: reading a credential means a database query and a decryption in n8n, and with 20 deliveries
 * at once these queue behind every execution n8n is saving; the read was the slowest part of an
 * answer (bench/results.md, "Trigger").
 * Copies that arrive together share one read. A changed secret applies within SECRET_TTL_MS. The
 * secret stays in this process's memory, as it does while n8n runs the node; nothing writes it out,
 * and an expired one is dropped (at most 1,000 credentials, the least recently used go first).
 */
export const SECRET_TTL_MS = 5_000;
export const SECRET_MEMORY: MemoryLimits = { maxEntries: 1_000, idleMs: SECRET_TTL_MS };

const secrets = new LruMemory<{ until: number; secret: Promise<string> }>(
	SECRET_MEMORY,
	undefined,
	(cached, now) => cached.until <= now,
);

/** The secret of credential `id`: the cached one while fresh, else `read()` (shared by concurrent callers). */
export async function cachedSecret(
	id: string | null | undefined,
	read: () => Promise<string>,
	now = Date.now(),
): Promise<string> {
	if (!id) return await read();
	const cached = secrets.get(id, now);
	if (cached && cached.until > now) return await cached.secret;
	const secret = read();
	const entry = { until: now + SECRET_TTL_MS, secret };
	secrets.set(id, entry, now);
	// A failed or empty read is not kept: the next delivery reads again.
	const value = await secret.catch(() => '');
	if (value === '' && secrets.get(id, now) === entry) secrets.delete(id);
	return await secret;
}

/** Forgets every cached secret (tests). */
export function forgetSecrets(): void {
	secrets.clear();
}

/** How many credentials have a cached secret (tests). */
export function cachedSecretCount(): number {
	return secrets.size;
}

import type { IDataObject } from 'n8n-workflow';

const MAX_BACKOFF_MS = 30_000;

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: IDataObject, now = Date.now()): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.min(Math.max(seconds * 1000, 0), MAX_BACKOFF_MS * 4);
	const at = Date.parse(String(raw));
	return Number.isNaN(at) ? undefined : Math.min(Math.max(at - now, 0), MAX_BACKOFF_MS * 4);
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s ... capped, each spread by `jitter` in [0, 1). */
export function backoffMs(attempt: number, jitter = Math.random()): number {
	const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1));
	return ceiling / 2 + jitter * (ceiling / 2);
}

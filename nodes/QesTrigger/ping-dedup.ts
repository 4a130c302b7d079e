import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { RecentPings, TriggerStaticData } from './static-data';

/** Upper bound of remembered pings, so static data stays small whatever the traffic. */
export const MAX_REMEMBERED_PINGS = 500;

/** JSON with object keys sorted at every level: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
	const entries = Object.keys(value as object)
		.filter((key) => (value as IDataObject)[key] !== undefined)
		.sort()
		.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
	return `{${entries.join(',')}}`;
}

export function pingHash(body: unknown): string {
	return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * Remembers this ping and says whether an identical one arrived within the window. Entries older
 * than the window are pruned and at most MAX_REMEMBERED_PINGS are kept (the newest). The receipt
 * time of a duplicate is refreshed, so a provider that keeps resending stays recognised.
 * A window of 0 turns the check off and forgets what was remembered.
 */
export function isDuplicatePing(staticData: TriggerStaticData, hash: string, windowMs: number, now = Date.now()): boolean {
	if (!(windowMs > 0)) {
		if (staticData.recentPings !== undefined) delete staticData.recentPings;
		return false;
	}
	const previous = (staticData.recentPings && typeof staticData.recentPings === 'object' ? staticData.recentPings : {}) as RecentPings;
	const kept = Object.entries(previous).filter(([, at]) => typeof at === 'number' && at > now - windowMs && at <= now);
	const duplicate = kept.some(([key]) => key === hash);
	const next = kept.filter(([key]) => key !== hash);
	next.push([hash, now]);
	next.sort((a, b) => a[1] - b[1]);
	// A new object each time: n8n saves static data only when it sees a top-level assignment.
	staticData.recentPings = Object.fromEntries(next.slice(-MAX_REMEMBERED_PINGS));
	return duplicate;
}

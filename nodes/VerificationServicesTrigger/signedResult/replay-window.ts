import type { IDataObject } from 'n8n-workflow';

import { member } from '../../shared/responses/envelope';
import { isObject } from '../../shared/responses/json';

/**
 * The provider resends a result it got no 2xx for over about 24 hours (6 more attempts, the last
 * about 10,000 s after the one before). A signed body whose own timestamp is further than this from
 * now is no resend but a replay (e.g. a body captured from a log): refused, nothing starts.
 */
export const REPLAY_WINDOW_MINUTES = 1500;

/**
 * The time a result names: `timestamp` at the top level, else in its `data` envelope, else
 * `generalTransactionData.timestamp`; undefined when there is none or it is no date.
 */
export function resultTime(body: unknown): number | undefined {
	if (!isObject(body)) return undefined;
	const layers: IDataObject[] = isObject(body.data) ? [body, body.data] : [body];
	for (const layer of layers) {
		const general = member(layer, 'generalTransactionData');
		for (const value of [
			member(layer, 'timestamp'),
			isObject(general) ? member(general, 'timestamp') : undefined,
		]) {
			if (typeof value !== 'string' || value.trim() === '') continue;
			const time = Date.parse(value);
			if (Number.isFinite(time)) return time;
		}
	}
	return undefined;
}

/** Whether the body's own time is more than `windowMs` before (or after) `now`; a body without one is never stale. */
export function isStale(body: unknown, windowMs: number, now = Date.now()): boolean {
	const time = resultTime(body);
	return time !== undefined && Math.abs(now - time) > windowMs;
}

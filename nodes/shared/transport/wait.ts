import { sleep } from 'n8n-workflow';

/** What a wait or a request ends with when its execution was cancelled: nothing more is sent. */
export class ExecutionCancelled extends Error {
	constructor() {
		super('The execution was cancelled');
		this.name = 'ExecutionCancelled';
	}
}

/**
 * `promise`, unless `signal` aborts first: then an ExecutionCancelled at once (the promise itself
 * goes on, for whoever else waits on it).
 */
export async function unlessCancelled<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return await promise;
	if (signal.aborted) throw new ExecutionCancelled();
	let onAbort = () => {};
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(new ExecutionCancelled());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	// n8n 2.x's sleep rejects with the signal's own reason: one error for every cancelled wait.
	const settled = await Promise.race([promise, aborted]).then(
		(value) => ({ value }),
		(error: unknown) => ({ error: signal.aborted ? new ExecutionCancelled() : error }),
	);
	signal.removeEventListener('abort', onAbort);
	if ('error' in settled) return await Promise.reject(settled.error);
	return settled.value;
}

/** The longest delay Node's timers keep: a longer one (or NaN) fires after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay a timer keeps as it is: within 0 and MAX_TIMER_MS (NaN counts as 0). */
export function timerMs(ms: number): number {
	return Number.isNaN(ms) ? 0 : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}

/**
 * Waits `ms` (at most MAX_TIMER_MS), or ends with ExecutionCancelled as soon as `signal` aborts.
 * n8n 2.x's sleep clears its timer on abort; n8n 1.x's ignores the signal, so the abort is raced here
 * as well.
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	await unlessCancelled(sleep(timerMs(ms), signal), signal);
}

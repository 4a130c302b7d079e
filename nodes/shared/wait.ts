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

/**
 * Waits `ms`, or ends with ExecutionCancelled as soon as `signal` aborts. n8n 2.x's sleep clears its
 * timer on abort; n8n 1.x's ignores the signal, so the abort is raced here as well.
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	await unlessCancelled(sleep(ms, signal), signal);
}

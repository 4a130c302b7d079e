/**
 * How the request path behaves for one run: the node's Options (operation/request-options.ts holds
 * them as editor parameters and their rules), or the defaults where nobody chose any.
 */

/**
 * The bounds of Max Requests per Second and Timeout. Both become timer delays (1000 / rate ms between
 * requests, the timeout in ms), and Node runs a delay above 2^31-1 ms (24.8 days) after 1 ms: a rate
 * of 0.0000001 would send in a busy loop and a timeout of 3,000,000 s would abort every request at once.
 * The bounds keep every delay far below that: one request per 100 s at the slowest, 1 ms apart at the
 * fastest (the timers' resolution), and 10 minutes for one answer.
 */
export const MIN_REQUESTS_PER_SECOND = 0.01;
export const MAX_REQUESTS_PER_SECOND = 1000;
export const MIN_TIMEOUT_SECONDS = 0.1;
export const MAX_TIMEOUT_SECONDS = 600;

export interface RequestSettings {
	/** 0: automatic, the account's concurrency window alone (see concurrency-window.ts). */
	maxConcurrentRequests: number;
	/** 0: no fixed quota; the node then adapts to the API's 429 answers. */
	maxRequestsPerSecond: number;
	maxRetries: number;
	/** How long one request (the token exchange included) may take before it counts as failed. */
	timeoutSeconds: number;
}

/** The settings when nobody chose any: load options, trigger hooks and webhooks (the Options' defaults). */
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
	maxConcurrentRequests: 0,
	maxRequestsPerSecond: 0,
	maxRetries: 5,
	timeoutSeconds: 30,
};

import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ResponsePath } from '../responses/envelope';

/**
 * The request path's own types: what it is asked to send, what it answers, and how an answer is
 * judged and a refusal explained. The operation tables use them (operation-types.ts); the request path
 * knows nothing of operations or fields.
 */

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
	/**
	 * When the sending that got this answer left (after any wait for the quota) and when its answer
	 * arrived, in ms since the epoch; an answer given again from memory keeps its first times.
	 */
	sentAtMs?: number;
	answeredAtMs?: number;
}

/**
 * What a 2xx answer must be for the operation to trust it; anything else (an HTML page, invalid
 * JSON, an empty body, `null`, `{}` where a result is due) is an error that says what arrived, never
 * an empty or negative result.
 * - `body: 'json'` (the default): a JSON object or array; `'nothing'`: documented as "200 with no
 *   body", so an empty answer or any JSON object; `'jsonOrFile'`: a JSON object, or a file (any other
 *   content type but HTML, not empty), kept as its bytes;
 * - `oneOf`: at least one of these paths holds a value (not undefined, null or '');
 * - `allOf`: every one of them does;
 * - `result`: the payload is a non-empty JSON object that reports no error (`error`, `status: false`):
 *   for an answer whose shape differs by generation, so that no one member can be named.
 */
export interface ResponseExpectation {
	body?: 'json' | 'nothing' | 'jsonOrFile';
	oneOf?: ResponsePath[];
	allOf?: ResponsePath[];
	result?: boolean;
}

/**
 * What to do when the API refuses the request, in the words of someone using the node: by HTTP
 * status, and `notFound` for a 404 or a 4xx whose message says "not found". `{field}` is replaced by
 * the item's value of that field (never a secret field). These replace the general hints of errors.ts.
 */
export type ErrorHints = Partial<Record<number | 'notFound', string>>;

/** A request an operation wants sent; the base URL, token, pacing and retries are added later. */
export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	/** The answer may be a file (`expects.body: 'jsonOrFile'`): it is received as bytes, not parsed as JSON. */
	answerAsBytes?: boolean;
}

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

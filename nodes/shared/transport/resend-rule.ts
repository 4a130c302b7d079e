import { valueAt } from '../responses/envelope';

/**
 * The one rule for "may this request go out again?", whatever asks: the request path's own retries
 * (transport.ts) and n8n's Retry On Fail re-running the node within the execution (sent-requests.ts).
 * A request of an operation that is not `repeatable` (money, messages, billed journeys) that may have
 * reached the API is never sent again; one the API refused before acting, or one that never left, may be.
 */

/** What became of one request, as far as the node can know. */
export type SendOutcome =
	/** It never left n8n: the token exchange failed, or the execution was cancelled before sending. */
	| 'notSent'
	/** The API refused it before acting: a 4xx (401 and 429 included). */
	| 'refused'
	/** The API answered it (a 2xx, or an answer the operation accepts): it was carried out. */
	| 'answered'
	/** It may have been carried out: sent, then a network error, a timeout, a 5xx, or a 2xx the node cannot use. */
	| 'mayHaveBeenCarriedOut';

/** The outcome of a request the API answered with `statusCode`. */
export function outcomeOfStatus(statusCode: number): SendOutcome {
	if (statusCode >= 200 && statusCode < 300) return 'answered';
	if (statusCode >= 400 && statusCode < 500) return 'refused';
	return 'mayHaveBeenCarriedOut';
}

/**
 * Network failures that end a request before any of it reached the API: nothing to connect to, no
 * address, no route, or a TLS certificate refused during the handshake (before the request is written).
 * Any other failure (a reset, a timeout, a cut connection) may come after the API received it.
 */
const NEVER_REACHED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The outcome of a request that got no answer, by its failure's code (network-failure.ts `networkFailure`). */
export function outcomeOfNetworkFailure(code: string | undefined): SendOutcome {
	return code !== undefined && NEVER_REACHED.has(code) ? 'notSent' : 'mayHaveBeenCarriedOut';
}

/**
 * The rule. A repeatable request (a read, an idempotent write) may always go out again; any other
 * only when the API cannot have acted on it. How often a request that may go out is retried, and
 * after which answers, is the caller's business (transport.ts: 429, 503, network errors, 401 once).
 */
export function mayGoOutAgain(outcome: SendOutcome, repeatable: boolean): boolean {
	if (repeatable) return true;
	return outcome === 'notSent' || outcome === 'refused';
}

/** What an error of a request that may have been carried out keeps of it: the receipt and the answer. */
export interface CarriedOutMark {
	/** The operation's receipt value (a deposit's transactionId) when the answer held one. */
	receipt?: { path: string; value: unknown };
	/** The API's answer, redacted; undefined when none came (a network error, a timeout). */
	answer?: unknown;
}

const marks = new WeakMap<object, CarriedOutMark>();

/** Marks the error of a request that may have been carried out, so that every report can say so. */
export function markMayHaveBeenCarriedOut<T extends object>(
	error: T,
	mark: CarriedOutMark = {},
): T {
	marks.set(error, mark);
	return error;
}

/** The mark of an error whose request may have been carried out; undefined for any other error. */
export function mayHaveBeenCarriedOut(error: unknown): CarriedOutMark | undefined {
	return error !== null && typeof error === 'object' ? marks.get(error) : undefined;
}

/** The receipt an answer holds at the operation's `receipt` path, for a CarriedOutMark. */
export function receiptIn(
	answer: unknown,
	path: string | undefined,
): Pick<CarriedOutMark, 'receipt'> {
	if (path === undefined) return {};
	const value = valueAt(answer, path);
	return value === undefined || value === null || value === '' ? {} : { receipt: { path, value } };
}

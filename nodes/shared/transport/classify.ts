import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../responses/envelope';
import type { Failure, NetworkFailure } from './request-failure';
import type { ApiResponse, ResponseExpectation } from './request-types';
import { checkResponse } from './response-check';

/**
 * What happens after one sending, decided from what came back and the sendings before it: a pure
 * function (no I/O, no clock, no pacer), so that every rule of the request path reads as one table
 * (test/shared/classify.test.ts). The rule "may this go out again?" (`mayGoOutAgain`, below) is applied
 * here and nowhere else: the retries follow it, and so does what the node remembers for Retry On Fail.
 */

/** What one sending brought back (transport.ts `transmit`), the body decoded. */
export type TransmitResult =
	| { kind: 'response'; response: ApiResponse }
	/** A redirect or a body over the size cap (limited-request.ts). */
	| { kind: 'refused'; statusCode: number; message: string; redirect: boolean }
	/** No answer. `deadline`: the deadline's words when the body was still arriving. */
	| { kind: 'noAnswer'; network: NetworkFailure; timedOut: boolean; deadline?: string };

/** The sendings of one request so far, this one included. */
export interface Sendings {
	/** Sendings made; a resend after a renewed token does not count. */
	sent: number;
	/** Sendings that timed out. */
	timeouts: number;
	/** The token was already renewed after a 401. */
	renewed: boolean;
	/** The execution was stopped while this one was under way. */
	cancelled: boolean;
	/** The time (ms) a Retry-After date is read against. */
	now: number;
	/** A number in [0, 1) that spreads the backoff of requests failing together. */
	jitter: number;
}

/** The operation's rules for its requests. */
export interface SendRules {
	/** Safe to send again (OperationDefinition.repeatable). */
	repeatable: boolean;
	/** Retries after 429, 503 and network errors (Max Retries). */
	maxRetries: number;
	/** A non-2xx response the operation takes as an answer (OperationDefinition.acceptsAnswer). */
	acceptsAnswer?: (statusCode: number, body: unknown) => boolean;
	/** What a 2xx answer must be; default a JSON object or array. */
	expects?: ResponseExpectation;
}

/** What the account's pacer learns from the sending (pacing.ts `settle`). */
export interface Pace {
	/** A 503, a timeout or a failed connection: fewer requests in flight. */
	overloaded?: true;
	/** A 429 answered; everybody waits this long. */
	rateLimitedMs?: number;
	/** An answer the node uses (a 2xx, or a refusal the operation accepts). */
	delivered?: true;
}

const NOTHING: Pace = {};
const DELIVERED: Pace = { delivered: true };
const OVERLOADED: Pace = { overloaded: true };
const OVERLOADED_DELIVERED: Pace = { overloaded: true, delivered: true };

/** A read that timed out is tried once more, so a silent API fails an item within about two minutes. */
export const MAX_TIMEOUT_RETRIES = 1;

export type Verdict = {
	pace: Pace;
	/** The resend rule applied to what became of this sending (false: it may have been carried out). */
	mayGoOutAgain: boolean;
} & (
	| { next: 'ok'; response: ApiResponse }
	/** A refusal the operation takes as its answer (a wrong OTP code). */
	| { next: 'accepted'; response: ApiResponse }
	| { next: 'retry'; afterMs: number }
	| { next: 'renewToken' }
	/** The execution was stopped: nothing more is sent. */
	| { next: 'cancelled' }
	| { next: 'fail'; failure: Failure }
);

export function classify(answer: TransmitResult, sendings: Sendings, rules: SendRules): Verdict {
	if (answer.kind === 'response') return classifyResponse(answer.response, sendings, rules);
	const outcome: SendOutcome =
		answer.kind === 'noAnswer'
			? outcomeOfNetworkFailure(answer.network.code)
			: 'mayHaveBeenCarriedOut';
	const again = mayGoOutAgain(outcome, rules.repeatable);
	// A request that must not go out again was let finish (transport.ts): its answer is reported.
	if (sendings.cancelled && again)
		return { next: 'cancelled', pace: NOTHING, mayGoOutAgain: again };
	// A redirect or an oversized body would be the same when sent again.
	if (answer.kind === 'refused') {
		const { statusCode, message, redirect } = answer;
		const failure: Failure = { kind: 'refusedAnswer', statusCode, message, redirect };
		return { next: 'fail', failure, pace: NOTHING, mayGoOutAgain: again };
	}
	const mayRetry = answer.timedOut
		? sendings.timeouts <= MAX_TIMEOUT_RETRIES
		: sendings.sent <= rules.maxRetries;
	if (again && mayRetry) {
		const afterMs = backoffMs(sendings.sent, sendings.jitter);
		return { next: 'retry', afterMs, pace: OVERLOADED, mayGoOutAgain: again };
	}
	const { network, timedOut, deadline } = answer;
	const failure: Failure = { kind: 'noAnswer', network, timedOut, deadline };
	return { next: 'fail', failure, pace: OVERLOADED, mayGoOutAgain: again };
}

function classifyResponse(response: ApiResponse, sendings: Sendings, rules: SendRules): Verdict {
	const { statusCode } = response;
	const outcome = outcomeOfStatus(statusCode);
	const again = mayGoOutAgain(outcome, rules.repeatable);
	if (sendings.cancelled && again)
		return { next: 'cancelled', pace: NOTHING, mayGoOutAgain: again };
	if (statusCode >= 200 && statusCode < 300) {
		const check = checkResponse(response, rules.expects);
		if (check.trusted)
			return {
				next: 'ok',
				response: { ...response, body: check.body },
				pace: DELIVERED,
				mayGoOutAgain: again,
			};
		// Accepted, but its answer cannot be read: it may have been carried out.
		const mayRepeat = mayGoOutAgain('mayHaveBeenCarriedOut', rules.repeatable);
		const failure: Failure = {
			kind: 'unusableAnswer',
			statusCode,
			expected: check.expected,
			arrived: check.arrived,
			...(mayRepeat ? {} : { answer: check.body }),
		};
		return { next: 'fail', failure, pace: DELIVERED, mayGoOutAgain: mayRepeat };
	}
	const overloaded = statusCode === 503;
	// A 401 means the request was not processed: renewing the token and resending is safe.
	if (statusCode === 401 && !sendings.renewed)
		return { next: 'renewToken', pace: NOTHING, mayGoOutAgain: again };
	// 429 means refused before acting; a 503 may come after the API acted, so only reads repeat it.
	if ((statusCode === 429 || overloaded) && again && sendings.sent <= rules.maxRetries) {
		const afterMs =
			retryAfterMs(response.headers, sendings.now) ?? backoffMs(sendings.sent, sendings.jitter);
		const pace = overloaded ? OVERLOADED : { rateLimitedMs: afterMs };
		return { next: 'retry', afterMs, pace, mayGoOutAgain: again };
	}
	if (rules.acceptsAnswer?.(statusCode, response.body)) {
		const pace = overloaded ? OVERLOADED_DELIVERED : DELIVERED;
		return {
			next: 'accepted',
			response,
			pace,
			mayGoOutAgain: mayGoOutAgain('answered', rules.repeatable),
		};
	}
	const failure: Failure = { kind: 'status', statusCode, body: response.body };
	return { next: 'fail', failure, pace: overloaded ? OVERLOADED : NOTHING, mayGoOutAgain: again };
}

const MAX_BACKOFF_MS = 30_000;
/** The longest Retry-After that is waited for as given; a longer one is waited for this long. */
export const MAX_RETRY_AFTER_MS = MAX_BACKOFF_MS * 4;

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: IDataObject, now = Date.now()): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.min(Math.max(seconds * 1000, 0), MAX_RETRY_AFTER_MS);
	const at = Date.parse(String(raw));
	return Number.isNaN(at) ? undefined : Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s ... capped, each spread by `jitter` in [0, 1). */
export function backoffMs(attempt: number, jitter = Math.random()): number {
	const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1));
	return ceiling / 2 + jitter * (ceiling / 2);
}

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

/** The outcome of a request that got no answer, by its failure's code (request-failure.ts `networkFailure`). */
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

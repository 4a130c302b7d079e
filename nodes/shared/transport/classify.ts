import type { ApiResponse, ResponseExpectation } from './request-types';
import { checkResponse } from './response-check';
import type { NetworkFailure } from './network-failure';
import type { Failure } from './request-failure';
import {
	mayGoOutAgain,
	outcomeOfNetworkFailure,
	outcomeOfStatus,
	type SendOutcome,
} from './resend-rule';
import { backoffMs, retryAfterMs } from './retry-timing';

/**
 * What happens after one sending, decided from what came back and the sendings before it: a pure
 * function (no I/O, no clock, no pacer), so that every rule of the request path reads as one table
 * (test/shared/classify.test.ts). The rule "may this go out again?" (resend-rule.ts) is applied here
 * and nowhere else: the retries follow it, and so does what the node remembers for Retry On Fail.
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

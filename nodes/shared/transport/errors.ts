import { type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

import { isObject } from '../responses/json';
import type { ErrorHints } from './request-types';
import { type CarriedOutMark, markMayHaveBeenCarriedOut, receiptIn } from './classify';
import {
	describeNetworkFailure,
	type FailedSending,
	type Failure,
	type NetworkFailure,
	networkDetail,
	type RequestFailed,
	timeoutWords,
} from './request-failure';

/**
 * The one module that turns a failed request into the error n8n shows, once, at the boundary of the
 * request path (an item of a node run, or a trigger's or load-options' single request): refused
 * requests, network failures, answers that cannot be trusted, a refused or failed token exchange.
 * Each says what happened (operation, HTTP status, the API's own words) and, as its description,
 * what to do: the operation's own hints first (filled with the item's values by the caller).
 * Errors of field values live with the fields (operation/validation-error.ts).
 */

export const AUTH_HINT =
	'Check the API key and the customer ID in the credential, and that they belong to the chosen environment (Production or Sandbox).';

/** What to do about each kind of refusal, unless the operation's table entry says better. */
const HINTS: Record<number, string> = {
	400: 'The API refused the values sent: check the field named in the message.',
	401: AUTH_HINT,
	403: 'Your account may not use this operation: ask the provider to enable it for your customer ID.',
	404: 'Check the id you passed: it must come from an earlier call of the same account and environment.',
	429: 'The rate limit was still exceeded after all retries: lower Max Concurrent Requests, set Max Requests per Second to 98 % of your quota (per worker: of its share, rounded down), or raise Max Retries (node Options).',
	500: 'The API failed on its side. Try again later; if it persists, send the provider the time of the request.',
	503: 'The API is temporarily unavailable and stayed so through all retries. Try again later or raise Max Retries (node Options).',
};

/** For an operation that is not repeatable: whether the API may have acted on a failed request. */
export function mayHaveActed(statusCode: number | undefined): string {
	if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
		return `The API refused the request (HTTP ${statusCode}), so it was not carried out.`;
	}
	return 'The API may have received and carried out this request (money moved or a message sent) before it failed, so it was not sent again. Check the result on the provider side before running this item again.';
}

/** Where the API's generations put the reason of a refusal, in the order read. */
const REASON_PATHS = [
	'error',
	'message',
	'data.message',
	'data.error',
	'data.status.description',
	'status.description',
];

/**
 * The API's own words: the first text of `error`, `message`, `data.message`, `data.error`,
 * `data.status.description`, `status.description`; `error` and `message` together when both say
 * something (`{error: "Too Many Requests", message: "Rate limit exceeded"}`); else the raw text.
 */
export function apiMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	const texts = REASON_PATHS.map((path) =>
		path.split('.').reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), body),
	).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
	const [first, second] = texts;
	const both =
		isObject(body) &&
		second !== undefined &&
		first === body.error &&
		second === body.message &&
		second !== first;
	return both ? `${first}: ${second}` : first;
}

function isNotFound(statusCode: number, body: unknown): boolean {
	return (
		statusCode === 404 ||
		(statusCode >= 400 &&
			statusCode < 500 &&
			/not\s*found|unknown|does not exist/i.test(apiMessage(body) ?? ''))
	);
}

/** Who asked for the request: named in the error, with the operation's hints filled for the item. */
export interface RequestAbout {
	operation: string;
	itemIndex: number;
	hints?: ErrorHints;
	/** Where the answer names what the API did (OperationDefinition.receipt). */
	receipt?: string;
}

/**
 * The error n8n shows for a failed request (already redacted by the request path). One that may
 * have been carried out is marked so (classify.ts), with its receipt and the answer when one came.
 */
export function requestError(
	node: INode,
	failed: RequestFailed,
	about: RequestAbout,
): NodeApiError {
	const { failure, sending } = failed;
	// The answer of a 2xx the node could not use is kept only when it may have been carried out.
	const kept =
		failure.kind === 'unusableAnswer' && 'answer' in failure
			? { answer: failure.answer, ...receiptIn(failure.answer, about.receipt) }
			: undefined;
	const error = shapeError(node, failure, sending, about, kept?.receipt);
	return sending.mayHaveBeenCarriedOut ? markMayHaveBeenCarriedOut(error, kept) : error;
}

function shapeError(
	node: INode,
	failure: Failure,
	sending: FailedSending,
	about: RequestAbout,
	receipt: CarriedOutMark['receipt'],
): NodeApiError {
	switch (failure.kind) {
		case 'token':
			return tokenError(node, failure, about);
		case 'refusedAnswer':
			return answerRefusedError(node, failure, sending, about);
		case 'noAnswer':
			return networkError(node, failure, sending, about);
		case 'status':
			return apiError(node, failure, sending, about);
		case 'unusableAnswer':
			return unexpectedAnswerError(node, failure, sending, about, receipt);
	}
}

/**
 * What to do about a refusal: the operation's hint (`notFound` for a 404 or a "not found" answer,
 * else the one for the status), else the general one; for an operation that is not repeatable, first
 * whether the API may have acted (not after 401 and 429: refused before acting, and resent).
 */
export function refusalHint(
	statusCode: number,
	body: unknown,
	repeatable: boolean,
	hints?: ErrorHints,
): string {
	const known =
		(isNotFound(statusCode, body) ? hints?.notFound : undefined) ??
		hints?.[statusCode] ??
		HINTS[statusCode] ??
		(statusCode >= 500 ? HINTS[500] : HINTS[400]);
	return repeatable || statusCode === 429 || statusCode === 401
		? known
		: `${mayHaveActed(statusCode)} ${known}`;
}

/** NodeApiError with the status, the API's message, the operation and what to do; no request headers. */
function apiError(
	node: INode,
	{ statusCode, body }: Extract<Failure, { kind: 'status' }>,
	{ attempts, repeatable }: FailedSending,
	{ operation, itemIndex, hints }: RequestAbout,
): NodeApiError {
	const said = (apiMessage(body) ?? 'no message').slice(0, 500);
	const hint = refusalHint(statusCode, body, repeatable, hints);
	const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
	const responseBody = body && typeof body === 'object' ? (body as JsonObject) : { message: said };
	return new NodeApiError(node, responseBody, {
		message: `${operation} failed with HTTP ${statusCode}${tries}: ${said}`,
		description: hint,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** A copy of the failure to keep as the error's cause: code and message, never the request (its headers hold the token). */
function causeOf(failure: NetworkFailure): Error {
	return Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
}

/** A failure before any response: connection refused, reset, TLS, DNS, proxy, timeout. */
function networkError(
	node: INode,
	{ network, timedOut: late, deadline }: Extract<Failure, { kind: 'noAnswer' }>,
	sending: FailedSending,
	{ operation, itemIndex }: RequestAbout,
): NodeApiError {
	const what = late ? timeoutWords(deadline, sending.timeoutMs) : describeNetworkFailure(network);
	const tries = sending.attempts > 1 ? ` after ${sending.attempts} attempts` : '';
	// A request that never reached the API is described as a read's: nothing can have happened.
	const advice = !sending.mayHaveBeenCarriedOut
		? `${late ? 'The API did not answer in time' : 'The request could not reach the API'}${tries}. Check that the base URL is reachable from n8n${late ? ', or raise Timeout (Seconds) in the node options' : ''}.`
		: `${mayHaveActed(undefined)} It is never resent after a ${late ? 'timeout' : 'network error'}.`;
	const error = new NodeApiError(node, { message: what } as JsonObject, {
		message: `${operation} could not ${late ? 'get an answer from' : 'reach'} the API at ${sending.baseUrl} (${what})`,
		description: late ? advice : `${networkDetail(network)} ${advice}`,
		itemIndex,
	});
	Object.defineProperty(error, 'cause', {
		value: causeOf(network),
		configurable: true,
		writable: true,
	});
	return error;
}

/**
 * An answer the request path does not use: a redirect (never followed, so the token stays with the
 * API) or a body over the size cap. Neither is sent again: it would be answered the same.
 */
function answerRefusedError(
	node: INode,
	{ statusCode, message, redirect }: Extract<Failure, { kind: 'refusedAnswer' }>,
	{ repeatable }: FailedSending,
	{ operation, itemIndex }: RequestAbout,
): NodeApiError {
	const advice = redirect
		? 'Redirects are never followed, so the token was not sent there. Check the base URL of the credential: an old address or a proxy may redirect.'
		: 'The answer was cut off at the size limit and not used. If the API really sends answers this large, report it to the provider.';
	const acted = statusCode >= 300 && statusCode < 400 ? undefined : statusCode;
	return new NodeApiError(node, { message } as JsonObject, {
		message: `${operation} got ${message}`,
		description: repeatable ? advice : `${mayHaveActed(acted)} ${advice}`,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** How much of an answer an error quotes: enough for any receipt, bounded for what n8n stores and shows. */
const MAX_ANSWER_CHARS = 4_000;

/** An answer (already redacted) as an error quotes it: the receipt first, then the answer itself. */
export function quoteAnswer(answer: unknown, receipt?: { path: string; value: unknown }): string {
	const text = typeof answer === 'string' ? answer : (JSON.stringify(answer) ?? '');
	const cut =
		text.length > MAX_ANSWER_CHARS
			? `${text.slice(0, MAX_ANSWER_CHARS)}... (${text.length - MAX_ANSWER_CHARS} more characters)`
			: text;
	const first = receipt ? `${receipt.path} ${String(receipt.value)}; ` : '';
	return `${first}the answer, redacted: ${cut || '(empty)'}`;
}

/**
 * A 2xx whose body is not what the operation can trust. For an operation that is not repeatable the
 * API accepted it, so it may have been carried out: the error keeps its receipt and the whole answer
 * (`answer`, redacted), so that nobody sends it again to find out.
 */
function unexpectedAnswerError(
	node: INode,
	failure: Extract<Failure, { kind: 'unusableAnswer' }>,
	{ repeatable }: FailedSending,
	{ operation, itemIndex }: RequestAbout,
	receipt: CarriedOutMark['receipt'],
): NodeApiError {
	const { statusCode, expected, arrived } = failure;
	const carriedOut = `The API accepted the request (HTTP ${statusCode}), so it may have been carried out (money moved or a message sent), but its answer cannot be read. Check the result on the provider side before running this item again.`;
	const description = repeatable
		? 'The answer is not used as a result. A proxy, a maintenance page or an API change may be in the way: check the base URL of the credential, then try again.'
		: `${carriedOut} ${quoteAnswer(failure.answer ?? arrived, receipt)}`;
	const message = repeatable
		? `${operation} got an answer that is not ${expected} (HTTP ${statusCode}): ${arrived}`
		: `${operation} got an answer that is not ${expected} (HTTP ${statusCode}); it may have been carried out: ${receipt ? `${receipt.path} ${String(receipt.value)}` : arrived}`;
	return new NodeApiError(node, { message: `unexpected answer: ${arrived}` } as JsonObject, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** The token exchange failed: the item's error names the operation and says what to check. */
function tokenError(
	node: INode,
	failure: Extract<Failure, { kind: 'token' }>,
	{ operation, itemIndex }: RequestAbout,
): NodeApiError {
	const description = failure.rejected
		? AUTH_HINT
		: failure.network
			? networkDetail(failure.network)
			: undefined;
	const message = `${operation} failed: ${failure.message}`;
	// The same text as errorResponse, so that n8n does not repeat the message as the description.
	const mapped = new NodeApiError(node, { message } as JsonObject, {
		message,
		description,
		itemIndex,
	});
	if (failure.network)
		Object.defineProperty(mapped, 'cause', {
			value: causeOf(failure.network),
			configurable: true,
			writable: true,
		});
	return mapped;
}

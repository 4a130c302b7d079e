import { type INode, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	AnswerDeadline,
	type AnswerRefused,
	AnswerTooLarge,
	RedirectRefused,
} from './bounded-request';
import { FieldError } from '../fields/field-error';
import { fieldLabel } from '../fields/field-labels';
import { isObject } from '../answers/json';
import type { ErrorHints, FieldValues, OperationDefinition } from '../operation/operation-types';
import { TokenExchangeError } from './token-exchange';
import {
	describeNetworkFailure,
	type NetworkFailure,
	networkDetail,
	networkFailure,
	timeoutWords,
} from './network-failure';

/**
 * The one module that turns failures into the errors n8n shows: refused requests, network failures,
 * answers that cannot be trusted, a refused or failed token exchange, invalid values. Each says what
 * happened (operation, HTTP status, the API's own words) and, as its description, what to do.
 */

export const AUTH_HINT =
	'Check the API key and the customer ID in the credential, and that they belong to the chosen environment (Production or Sandbox).';

/** What to do about each kind of refusal, unless the operation's table entry says better. */
const HINTS: Record<number, string> = {
	400: 'The API refused the values sent: check the field named in the message.',
	401: AUTH_HINT,
	403: 'Your account may not use this operation: ask the provider to enable it for your customer ID.',
	404: 'Check the id you passed: it must come from an earlier call of the same account and environment.',
	429: 'The rate limit was still exceeded after all retries: lower Max Concurrent Requests, set Max Requests per Second to your quota, or raise Max Retries (node Options).',
	500: 'The API failed on its side. Try again later; if it persists, send the provider the time of the request.',
	503: 'The API is temporarily unavailable and stayed so through all retries. Try again later or raise Max Retries (node Options).',
};

/** The operation's hints with `{field}` replaced by the item's values (secret fields stay unnamed). */
export function itemHints(op: OperationDefinition, values: FieldValues): ErrorHints | undefined {
	if (!op.hints) return undefined;
	const secret = new Set(op.fields.filter((f) => f.rule && f.secret).map((f) => f.property.name));
	const fill = (text: string) =>
		text.replace(/\{(\w+)\}/g, (whole, name: string) =>
			values[name] === undefined || secret.has(name) ? whole : String(values[name]),
		);
	return Object.fromEntries(
		Object.entries(op.hints).map(([key, text]) => [key, fill(text as string)]),
	) as ErrorHints;
}

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

export interface ApiFailure {
	statusCode: number;
	/** Already redacted. */
	body: unknown;
	operation: string;
	itemIndex: number;
	attempts: number;
	/** False for operations that move money or send a message: the description then says what may have happened. */
	repeatable: boolean;
	hints?: ErrorHints;
}

/** NodeApiError with the status, the API's message, the operation and what to do; no request headers. */
export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const { statusCode, body, operation, itemIndex, attempts, repeatable, hints } = failure;
	const said = (apiMessage(body) ?? 'no message').slice(0, 500);
	const known =
		(isNotFound(statusCode, body) ? hints?.notFound : undefined) ??
		hints?.[statusCode] ??
		HINTS[statusCode] ??
		(statusCode >= 500 ? HINTS[500] : HINTS[400]);
	const hint =
		repeatable || statusCode === 429 || statusCode === 401
			? known
			: `${mayHaveActed(statusCode)} ${known}`;
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
export function networkError(
	node: INode,
	failure: {
		error: unknown;
		timedOut: boolean;
		operation: string;
		itemIndex: number;
		baseUrl: string;
		attempts: number;
		repeatable: boolean;
		timeoutMs: number;
	},
): NodeApiError {
	const { timedOut: late } = failure;
	const cause = networkFailure(failure.error);
	const what = late
		? timeoutWords(failure.error, failure.timeoutMs)
		: describeNetworkFailure(failure.error);
	const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const advice = failure.repeatable
		? `${late ? 'The API did not answer in time' : 'The request could not reach the API'}${tries}. Check that the base URL is reachable from n8n${late ? ', or raise Timeout (Seconds) in the node options' : ''}.`
		: `${mayHaveActed(undefined)} It is never resent after a ${late ? 'timeout' : 'network error'}.`;
	const error = new NodeApiError(node, { message: what } as JsonObject, {
		message: `${failure.operation} could not ${late ? 'get an answer from' : 'reach'} the API at ${failure.baseUrl} (${what})`,
		description: late ? advice : `${networkDetail(cause)} ${advice}`,
		itemIndex: failure.itemIndex,
	});
	Object.defineProperty(error, 'cause', {
		value: causeOf(cause),
		configurable: true,
		writable: true,
	});
	return error;
}

/**
 * An answer the request path does not use: a redirect (never followed, so the token stays with the
 * API) or a body over the size cap. Neither is sent again: it would be answered the same.
 */
export function answerRefusedError(
	node: INode,
	refused: AnswerRefused,
	failure: { operation: string; itemIndex: number; repeatable: boolean },
): NodeApiError {
	const { statusCode } = refused;
	const redirect = refused instanceof RedirectRefused;
	const advice = redirect
		? 'Redirects are never followed, so the token was not sent there. Check the base URL of the credential: an old address or a proxy may redirect.'
		: 'The answer was cut off at the size limit and not used. If the API really sends answers this large, report it to the provider.';
	const acted = statusCode >= 300 && statusCode < 400 ? undefined : statusCode;
	return new NodeApiError(node, { message: refused.message } as JsonObject, {
		message: `${failure.operation} got ${refused.message}`,
		description: failure.repeatable ? advice : `${mayHaveActed(acted)} ${advice}`,
		httpCode: String(statusCode),
		itemIndex: failure.itemIndex,
	});
}

/** What a 2xx answer that is not the expected JSON looked like: its content type and first characters. */
export function describeBody(contentType: string, text: string): string {
	const type = contentType || 'no content type';
	if (text.trim() === '') return `an empty body (${type})`;
	const start = text.trim().replace(/\s+/g, ' ').slice(0, 80);
	return `${type}, starting "${start}"${text.trim().length > 80 ? '...' : ''}`;
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
export function unexpectedAnswerError(
	node: INode,
	failure: {
		statusCode: number;
		operation: string;
		itemIndex: number;
		expected: string;
		arrived: string;
		repeatable: boolean;
		answer?: unknown;
		receipt?: { path: string; value: unknown };
	},
): NodeApiError {
	const { statusCode, operation, itemIndex, expected, arrived, repeatable, receipt } = failure;
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
export function tokenError(
	node: INode,
	error: unknown,
	operation: string,
	itemIndex: number,
): NodeApiError {
	const failure =
		error instanceof TokenExchangeError
			? error
			: new TokenExchangeError(String((error as Error)?.message ?? error), 'failed');
	const description =
		failure.reason === 'rejected'
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

/**
 * A value that broke its field's rule: the message names the field's label and name and counts the
 * item from 1 (as n8n's editor does; itemIndex stays 0-based, as n8n expects it).
 */
export function validationError(
	node: INode,
	op: OperationDefinition,
	error: FieldError,
	itemIndex: number,
): NodeOperationError {
	const position = itemIndex + 1;
	const label = fieldLabel(op, error.field);
	const named = `${label} (${error.field})`;
	const rest = error.message.slice(error.field.length);
	const message =
		error.message.startsWith(error.field) && /^[ :]/.test(rest)
			? `${named}${rest}`
			: `${named}: ${error.message}`;
	return new NodeOperationError(node, `${message} (item ${position})`, {
		itemIndex,
		description: `Nothing was sent for item ${position}. Fix the value of "${label}" (${error.field}) and run again.`,
	});
}

/** Any failure of an item as the error n8n shows for it. */
export function itemError(
	node: INode,
	op: OperationDefinition,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof FieldError) return validationError(node, op, error, itemIndex);
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** What to do when a download was refused by the request path's rules (bounded-request.ts). */
function downloadAdvice(error: unknown): string | undefined {
	if (error instanceof RedirectRefused)
		return 'The file host answered with a redirect, which is never followed. Run Get Verification Result again to receive fresh links.';
	if (error instanceof AnswerTooLarge)
		return 'The file is larger than any signed document should be, so it was not kept. Check the session on the provider side.';
	if (error instanceof AnswerDeadline)
		return 'The file did not arrive in time: raise Timeout (Seconds) in the node options, or run the operation again. The verification result itself was read.';
	return undefined;
}

/** A file an operation downloads (a signed document) could not be fetched. */
export function downloadError(
	node: INode,
	failure: { what: string; url: string; itemIndex: number; statusCode?: number; error?: unknown },
): NodeOperationError {
	const { what, url, itemIndex, statusCode, error } = failure;
	const advice = downloadAdvice(error);
	const how =
		statusCode !== undefined
			? `with HTTP ${statusCode}`
			: advice !== undefined
				? `(${(error as Error).message})`
				: `(${describeNetworkFailure(error)})`;
	return new NodeOperationError(node, `Downloading ${what} from ${url} failed ${how}`, {
		itemIndex,
		description:
			statusCode !== undefined
				? 'The pre-signed link was refused (it may have expired or been revoked). Run Get Verification Result again to receive fresh links.'
				: (advice ??
					`${networkDetail(networkFailure(error))} The file host could not be reached. Run the operation again; the verification result itself was read.`),
	});
}

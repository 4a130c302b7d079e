import { type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

export const AUTH_HINT =
	'Check the API key and the customer ID in the credential, and that they belong to the chosen environment (Production or Sandbox).';

/** What to do about each kind of failure, in the words of someone using the node. */
const HINTS: Record<number, string> = {
	400: 'The API refused the values sent: check the field named in the message.',
	401: AUTH_HINT,
	403: 'Your account may not use this operation: ask the provider to enable it for your customer ID.',
	404: 'Check the id you passed: it must come from an earlier call of the same account and environment.',
	429: 'The rate limit was still exceeded after all retries: lower Max Concurrent Requests, set Max Requests per Second to your quota, or raise Max Retries (node Options).',
	500: 'The API failed on its side. Try again later; if it persists, send the provider the time of the request.',
	503: 'The API is temporarily unavailable and stayed so through all retries. Try again later or raise Max Retries (node Options).',
};

const JOURNEY_NOT_FOUND_HINT =
	'Open a journey first (Document Verification > Open Journey) and pass its journeyId to this operation.';

export interface ApiFailure {
	statusCode: number;
	/** Already redacted. */
	body: unknown;
	operation: string;
	itemIndex: number;
	attempts: number;
	/** False for operations that move money or send a message: the description then says what may have happened. */
	repeatable: boolean;
}

/** For an operation that is not repeatable: whether the API may have acted on a failed request. */
export function mayHaveActed(statusCode: number | undefined): string {
	if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
		return `The API refused the request (HTTP ${statusCode}), so it was not carried out.`;
	}
	return 'The API may have received and carried out this request (money moved or a message sent) before it failed, so it was not sent again. Check the result on the provider side before running this item again.';
}

/** The API's own words: `message`, else `error`, else the raw text. */
export function apiMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (body && typeof body === 'object') {
		const { message, error } = body as { message?: unknown; error?: unknown };
		if (typeof message === 'string' && message) return message;
		if (typeof error === 'string' && error) return error;
	}
	return undefined;
}

export function isJourneyNotFound(statusCode: number, body: unknown): boolean {
	return statusCode >= 400 && statusCode < 500 && /journey/i.test(apiMessage(body) ?? '') && /not\s*found|unknown|does not exist/i.test(apiMessage(body) ?? '');
}

/** NodeApiError with the status, the API's message, the operation and a hint; no request headers. */
export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const { statusCode, body, operation, itemIndex, attempts, repeatable } = failure;
	const said = (apiMessage(body) ?? 'no message').slice(0, 500);
	const known = isJourneyNotFound(statusCode, body)
		? JOURNEY_NOT_FOUND_HINT
		: (HINTS[statusCode] ?? (statusCode >= 500 ? HINTS[500] : HINTS[400]));
	const hint = repeatable || statusCode === 429 || statusCode === 401 ? known : `${mayHaveActed(statusCode)} ${known}`;
	const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
	const responseBody = body && typeof body === 'object' ? (body as JsonObject) : { message: said };
	return new NodeApiError(node, responseBody, {
		message: `${operation} failed with HTTP ${statusCode}${tries}: ${said}`,
		description: hint,
		httpCode: String(statusCode),
		itemIndex,
	});
}

const NETWORK_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ERR_CANCELED: 'cancelled',
	EPIPE: 'connection closed',
	ECONNECTIONCLOSED: 'connection closed',
	EHOSTUNREACH: 'host unreachable',
};

/**
 * The network failure in words. n8n replaces any message that contains a raw code such as
 * ECONNREFUSED with its own generic sentence, which would hide which URL failed.
 */
export function describeNetworkFailure(error: unknown): string {
	const { code, cause } = (error ?? {}) as { code?: string; cause?: { code?: string } };
	const key = code ?? cause?.code ?? '';
	return NETWORK_FAILURES[key] ?? 'network error';
}

/** True when the request was given up because no answer came within its timeout. */
export function isTimeout(error: unknown): boolean {
	const { code, cause, message } = (error ?? {}) as { code?: string; cause?: { code?: string }; message?: unknown };
	const key = code ?? cause?.code ?? '';
	return key === 'ECONNABORTED' || key === 'ETIMEDOUT' || (typeof message === 'string' && /timeout of \d+ms exceeded|timed? ?out/i.test(message));
}

/** A failure before any response: connection refused, reset, timeout. */
export function networkError(
	node: INode,
	failure: {
		error: unknown;
		operation: string;
		itemIndex: number;
		baseUrl: string;
		attempts: number;
		repeatable: boolean;
		timeoutMs: number;
	},
): NodeApiError {
	const timedOut = isTimeout(failure.error);
	const what = timedOut ? `no answer within the timeout of ${failure.timeoutMs / 1000} s` : describeNetworkFailure(failure.error);
	const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const description = failure.repeatable
		? `${timedOut ? 'The API did not answer in time' : 'The request could not reach the API'}${tries}. Check that the base URL is reachable from n8n${timedOut ? ', or raise Timeout (Seconds) in the node options' : ''}.`
		: `${mayHaveActed(undefined)} It is never resent after a ${timedOut ? 'timeout' : 'network error'}.`;
	return new NodeApiError(node, { message: what } as JsonObject, {
		message: `${failure.operation} could not ${timedOut ? 'get an answer from' : 'reach'} the API at ${failure.baseUrl} (${what})`,
		description,
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

/** A 2xx whose body is not what the operation can trust. */
export function unexpectedAnswerError(
	node: INode,
	failure: { statusCode: number; operation: string; itemIndex: number; expected: string; arrived: string; repeatable: boolean },
): NodeApiError {
	const { statusCode, operation, itemIndex, expected, arrived, repeatable } = failure;
	const description = repeatable
		? 'The answer is not used as a result. A proxy, a maintenance page or an API change may be in the way: check the base URL of the credential, then try again.'
		: `The API accepted the request (HTTP ${statusCode}), so it may have been carried out (money moved or a message sent), but its answer cannot be read. Check the result on the provider side before running this item again.`;
	return new NodeApiError(node, { message: `unexpected answer: ${arrived}` } as JsonObject, {
		message: `${operation} got an answer that is not ${expected} (HTTP ${statusCode}): ${arrived}`,
		description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

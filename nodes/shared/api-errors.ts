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
	body: unknown;
	operation: string;
	itemIndex: number;
	attempts: number;
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
	const { statusCode, body, operation, itemIndex, attempts } = failure;
	const said = apiMessage(body) ?? 'no message';
	const hint = isJourneyNotFound(statusCode, body)
		? JOURNEY_NOT_FOUND_HINT
		: (HINTS[statusCode] ?? (statusCode >= 500 ? HINTS[500] : HINTS[400]));
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

/** A failure before any response: connection refused, reset, timeout. */
export function networkError(
	node: INode,
	failure: { error: unknown; operation: string; itemIndex: number; baseUrl: string; retried: boolean },
): NodeApiError {
	const what = describeNetworkFailure(failure.error);
	const description = failure.retried
		? 'The request was retried and still could not reach the API. Check that the base URL is reachable from n8n.'
		: 'This operation is not repeated automatically after a network error, because the first attempt may have reached the API (it moves money or sends a message). Check the result on the provider side before running it again.';
	return new NodeApiError(node, { message: what } as JsonObject, {
		message: `${failure.operation} could not reach the API at ${failure.baseUrl} (${what})`,
		description,
		itemIndex: failure.itemIndex,
	});
}

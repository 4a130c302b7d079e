import { ResponseDeadline } from './limited-request';

/**
 * Why a request failed, as plain data: what classify.ts decided and the token step saw. It leaves
 * the request path redacted (transport.ts) and becomes the error n8n shows in one place, at the
 * caller's boundary (errors.ts `requestError`), where the operation's hints are known.
 */
export type Failure =
	/** The token exchange failed: nothing was sent. */
	| { kind: 'token'; message: string; rejected: boolean; network?: NetworkFailure }
	/** A redirect or a body over the size cap: never used, never sent again. */
	| { kind: 'refusedAnswer'; statusCode: number; message: string; redirect: boolean }
	/** No answer: a network failure or the deadline. `deadline`: the deadline's own words. */
	| { kind: 'noAnswer'; network: NetworkFailure; timedOut: boolean; deadline?: string }
	/** A non-2xx answer the operation does not accept. */
	| { kind: 'status'; statusCode: number; body: unknown }
	/** A 2xx that is not what the operation expects; `answer` is kept when it may have been carried out. */
	| {
			kind: 'unusableAnswer';
			statusCode: number;
			expected: string;
			arrived: string;
			answer?: unknown;
	  };

/** What the error of a failed request says about its sending, beside the failure itself. */
export interface FailedSending {
	/** Sendings made, a resend after a renewed token not counted. */
	attempts: number;
	repeatable: boolean;
	/** The request may have been carried out (classify's verdict: it must not go out again). */
	mayHaveBeenCarriedOut: boolean;
	baseUrl: string;
	timeoutMs: number;
}

/** What the request path throws when a request failed; errors.ts `requestError` shapes it for n8n. */
export class RequestFailed extends Error {
	constructor(
		readonly failure: Failure,
		readonly sending: FailedSending,
	) {
		super(`request failed: ${failure.kind}`);
		this.name = 'RequestFailed';
	}
}

/**
 * What is known of a request that got no answer: its failure's code and words, whether it timed
 * out. Read by the error mapping and by the token exchange (which errors.ts itself describes).
 */

const NETWORK_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	EPIPE: 'connection closed',
	ECONNECTIONCLOSED: 'connection closed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	CERT_HAS_EXPIRED: 'TLS certificate expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
	SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in the chain',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate not trusted',
	ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate of another host',
	EPROTO: 'TLS handshake failed',
};

/** What is known of a failure before any response: its code (ECONNREFUSED, CERT_HAS_EXPIRED, ...) and its own words. */
export interface NetworkFailure {
	code?: string;
	message: string;
}

/** The code and message of a network error, wherever the HTTP client put them (the error, its cause). */
export function networkFailure(error: unknown): NetworkFailure {
	const { code, cause, message } = (error ?? {}) as {
		code?: unknown;
		cause?: { code?: unknown; message?: unknown };
		message?: unknown;
	};
	const found = [code, cause?.code].find((c): c is string => typeof c === 'string' && c !== '');
	const said = [message, cause?.message].find(
		(m): m is string => typeof m === 'string' && m !== '',
	);
	return { ...(found ? { code: found } : {}), message: said ?? 'no message' };
}

/**
 * The failure in words for the message. n8n replaces any message that holds a raw code such as
 * ECONNREFUSED with a generic sentence (which would hide which URL failed), so the code itself goes
 * to the description (`networkDetail`).
 */
export function describeNetworkFailure(error: unknown): string {
	const { code } = networkFailure(error);
	return (code && NETWORK_FAILURES[code]) ?? 'network error';
}

/** "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9.": the start of the description. */
export function networkDetail(failure: NetworkFailure): string {
	const said = failure.message.replace(/\.$/, '');
	return failure.code ? `${failure.code}: ${said}.` : `${said}.`;
}

/**
 * Whether a request was given up because no answer came within its timeout: by the code, by the
 * words, or by the time it took (n8n 1.x wraps the timeout into an error without its code).
 */
export function timedOut(error: unknown, sentAt: number, timeoutMs: number): boolean {
	const { code, message } = networkFailure(error);
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return true;
	return (
		/timeout of \d+ms exceeded|timed? ?out/i.test(message) || Date.now() - sentAt >= timeoutMs - 50
	);
}

/** The deadline's own words ("no complete answer ...") when the body was still arriving at it. */
export function deadlineWords(error: unknown): string | undefined {
	return error instanceof ResponseDeadline ? error.message : undefined;
}

/** "no answer within the timeout of 30 s", or the deadline's words when the body was still arriving. */
export function timeoutWords(deadline: string | undefined, timeoutMs: number): string {
	return deadline ?? `no answer within the timeout of ${timeoutMs / 1000} s`;
}

import { decodeText } from './response-check';
import {
	ResponseTooLarge,
	limitedRequest,
	type HttpRequest,
	MAX_TOKEN_RESPONSE_BYTES,
	RedirectRefused,
} from './limited-request';
import { classify, type SendRules, type Sendings, type Verdict } from './classify';
import type { ApiCredentials } from './credential-values';
import { isObject } from '../responses/json';
import {
	deadlineWords,
	describeNetworkFailure,
	type NetworkFailure,
	networkFailure,
	timedOut,
	timeoutWords,
} from './request-failure';
import type { ApiResponse } from './request-types';
import { Redactor } from './redact';
import { DEFAULT_REQUEST_SETTINGS } from './request-types';
import { wait } from './wait';

export type { HttpRequest } from './limited-request';

export interface IssuedToken {
	token: string;
	expiresAtMs: number;
	lifetimeMs: number;
}

/** How one exchange behaves: its timeout, how often a 429/503 of /auth is waited out, and what ends it early. */
export interface ExchangeOptions {
	timeoutMs: number;
	maxRetries: number;
	signal?: AbortSignal;
}

const DEFAULT_EXCHANGE_OPTIONS: ExchangeOptions = {
	timeoutMs: DEFAULT_REQUEST_SETTINGS.timeoutSeconds * 1000,
	maxRetries: DEFAULT_REQUEST_SETTINGS.maxRetries,
};

/** A token lifetime when neither expires_in nor the JWT says one (the interface promises 60 minutes). */
const DEFAULT_LIFETIME_MS = 3_600_000;

/**
 * Raised when POST /auth fails; its message never contains the key, the customer id or a token.
 * It carries no status property on purpose: n8n would swap the message for a generic one.
 */
export class TokenExchangeError extends Error {
	constructor(
		message: string,
		readonly reason: 'rejected' | 'unreachable' | 'failed',
		/** For `unreachable`: the network failure's code and words. */
		readonly network?: NetworkFailure,
	) {
		super(message);
		this.name = 'TokenExchangeError';
	}
}

/** What the user reads when POST /auth refuses the key (the credential test shows the same text). */
export function rejectedKeyMessage(status: number): string {
	return `The API rejected the API key or the customer ID (HTTP ${status}): check both in the credential, and that they belong to the chosen environment`;
}

/**
 * POST {base}/auth with the key and customer id in headers, as the vendor documents it. What its
 * answer means is decided by the request path's own classify.ts, so a 429 or 503 is waited out
 * (Retry-After, else backoff) by the same rule and count as any request. The request path calls it
 * through its token cache; the credential calls it for n8n's own requests (the HTTP Request node).
 */
export async function exchangeToken(
	httpRequest: HttpRequest,
	credentials: ApiCredentials,
	options: ExchangeOptions = DEFAULT_EXCHANGE_OPTIONS,
): Promise<IssuedToken> {
	if (!credentials.apiKey || !credentials.customerId) {
		throw new TokenExchangeError(
			'The credential needs both an API key and a customer ID',
			'rejected',
		);
	}
	const redactor = new Redactor([
		credentials.apiKey,
		credentials.customerId,
		credentials.accessToken,
	]);
	// /auth's 401 refuses the key: there is no token to renew, so `renewed` holds from the start.
	const sendings: Sendings = {
		sent: 0,
		timeouts: 0,
		renewed: true,
		cancelled: false,
		now: 0,
		jitter: 0,
	};
	const rules: SendRules = { repeatable: true, maxRetries: options.maxRetries };
	for (;;) {
		const response = await postAuth(httpRequest, credentials, options);
		sendings.sent++;
		sendings.now = Date.now();
		sendings.jitter = Math.random();
		const verdict = classify({ kind: 'response', response }, sendings, rules);
		if (verdict.next !== 'retry') return issuedBy(verdict, sendings.sent, redactor);
		await wait(verdict.afterMs, options.signal);
	}
}

/**
 * One POST /auth, its body decoded. No answer fails the exchange at once, unlike a request's network
 * failure (classify.ts retries those): the item that waits for the token fails without anything sent,
 * so n8n's Retry On Fail may run it again, and the credential's Test button tells a wrong base URL at
 * once instead of after Max Retries backoffs.
 */
async function postAuth(
	httpRequest: HttpRequest,
	credentials: ApiCredentials,
	options: ExchangeOptions,
): Promise<ApiResponse> {
	const sentAt = Date.now();
	try {
		// No redirect is followed: the key headers would go with it to the new origin.
		const raw = await limitedRequest(
			httpRequest,
			{
				method: 'POST',
				url: `${credentials.baseUrl}/auth`,
				headers: {
					'Api-Key': credentials.apiKey,
					'Customer-Id': credentials.customerId,
					'Content-Type': 'application/x-www-form-urlencoded',
				},
				body: '',
				json: false,
			},
			{ timeoutMs: options.timeoutMs, maxBytes: MAX_TOKEN_RESPONSE_BYTES, signal: options.signal },
		);
		return { statusCode: raw.statusCode, headers: raw.headers ?? {}, body: decodeText(raw.body) };
	} catch (error) {
		throw noAnswerError(error, sentAt, credentials.baseUrl, options.timeoutMs);
	}
}

/** Why POST /auth brought no answer the exchange can use: a redirect, an oversized body, the network. */
function noAnswerError(
	error: unknown,
	sentAt: number,
	baseUrl: string,
	timeoutMs: number,
): TokenExchangeError {
	if (error instanceof RedirectRefused) {
		return new TokenExchangeError(
			`The token exchange got ${error.message}: the key was not sent there. Check the base URL of the credential's environment: an old address or a proxy may redirect`,
			'failed',
		);
	}
	if (error instanceof ResponseTooLarge)
		return new TokenExchangeError(`The token exchange got ${error.message}`, 'failed');
	const late = timedOut(error, sentAt, timeoutMs);
	const what = late ? timeoutWords(deadlineWords(error), timeoutMs) : describeNetworkFailure(error);
	return new TokenExchangeError(
		`Could not reach the verification API at ${baseUrl} (${what}): check the base URL of the credential's environment${late ? ', or raise Timeout (Seconds) in the node options' : ''}`,
		'unreachable',
		late ? undefined : networkFailure(error),
	);
}

/** The token of a trusted answer, or why there is none: a refused key, a failure, no access_token. */
function issuedBy(verdict: Verdict, attempts: number, redactor: Redactor): IssuedToken {
	const failure = verdict.next === 'fail' ? verdict.failure : undefined;
	if (failure?.kind === 'status') {
		const { statusCode, body } = failure;
		if (statusCode === 401 || statusCode === 403)
			throw new TokenExchangeError(rejectedKeyMessage(statusCode), 'rejected');
		const said =
			isObject(body) && typeof body.message === 'string'
				? `: ${redactor.text(body.message).slice(0, 300)}`
				: '';
		const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
		throw new TokenExchangeError(
			`The token exchange failed with HTTP ${statusCode}${tries}${said}`,
			'failed',
		);
	}
	const body =
		verdict.next === 'ok' && isObject(verdict.response.body) ? verdict.response.body : {};
	if (typeof body.access_token !== 'string' || body.access_token === '') {
		throw new TokenExchangeError('The token exchange answered without an access_token', 'failed');
	}
	return issued(body.access_token, body.expires_in);
}

/**
 * The token's expiry: the earlier of a positive expires_in and the JWT's exp; without a usable
 * expires_in (missing, 0 or below) the JWT's exp, then 60 minutes.
 */
function issued(token: string, expiresIn: unknown): IssuedToken {
	const now = Date.now();
	const fromExpiresIn =
		typeof expiresIn === 'number' && expiresIn > 0 ? now + expiresIn * 1000 : undefined;
	const fromJwt = jwtExpiry(token);
	const candidates = [
		fromExpiresIn,
		fromJwt !== undefined && fromJwt > now ? fromJwt : undefined,
	].filter((t): t is number => t !== undefined);
	const expiresAtMs = candidates.length ? Math.min(...candidates) : now + DEFAULT_LIFETIME_MS;
	return { token, expiresAtMs, lifetimeMs: Math.max(expiresAtMs - now, 0) };
}

/** `exp` of a JWT (read, not verified), in ms; undefined when it is not a JWT. */
function jwtExpiry(token: string): number | undefined {
	try {
		const claims = JSON.parse(
			Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
		) as { exp?: unknown };
		return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
	} catch {
		return undefined;
	}
}

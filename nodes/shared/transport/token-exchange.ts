import type { IDataObject } from 'n8n-workflow';

import {
	AnswerTooLarge,
	type BoundedAnswer,
	boundedRequest,
	type HttpRequest,
	MAX_TOKEN_ANSWER_BYTES,
	RedirectRefused,
} from './bounded-request';
import type { ApiCredentials } from './credential-values';
import {
	describeNetworkFailure,
	type NetworkFailure,
	networkFailure,
	timedOut,
	timeoutWords,
	deadlineWords,
} from './network-failure';
import { Redactor } from './redact';
import { DEFAULT_REQUEST_SETTINGS } from './request-settings';
import { backoffMs, retryAfterMs } from './retry-timing';
import { wait } from './wait';

export type { HttpRequest } from './bounded-request';

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
 * POST {base}/auth with the key and customer id in headers, as the vendor documents it. A 429 or 503
 * is waited out (Retry-After, else backoff) inside this one exchange. The request path calls it through
 * its token cache; the credential calls it for n8n's own requests (the HTTP Request node).
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
	for (let attempt = 1; ; attempt++) {
		let response: BoundedAnswer | undefined;
		let unreachable: unknown;
		const sentAt = Date.now();
		try {
			// No redirect is followed: the key headers would go with it to the new origin.
			response = await boundedRequest(
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
				{ timeoutMs: options.timeoutMs, maxBytes: MAX_TOKEN_ANSWER_BYTES, signal: options.signal },
			);
		} catch (error) {
			unreachable = error;
		}
		if (unreachable instanceof RedirectRefused) {
			throw new TokenExchangeError(
				`The token exchange got ${unreachable.message}: the key was not sent there. Check the base URL of the credential's environment: an old address or a proxy may redirect`,
				'failed',
			);
		}
		if (unreachable instanceof AnswerTooLarge)
			throw new TokenExchangeError(`The token exchange got ${unreachable.message}`, 'failed');
		if (response === undefined) {
			const late = timedOut(unreachable, sentAt, options.timeoutMs);
			const what = late
				? timeoutWords(deadlineWords(unreachable), options.timeoutMs)
				: describeNetworkFailure(unreachable);
			throw new TokenExchangeError(
				`Could not reach the verification API at ${credentials.baseUrl} (${what}): check the base URL of the credential's environment${late ? ', or raise Timeout (Seconds) in the node options' : ''}`,
				'unreachable',
				late ? undefined : networkFailure(unreachable),
			);
		}
		const { statusCode } = response;
		if ((statusCode === 429 || statusCode === 503) && attempt <= options.maxRetries) {
			await wait(retryAfterMs(response.headers ?? {}) ?? backoffMs(attempt), options.signal);
			continue;
		}
		const body = parseBody(response.body.toString('utf8'));
		if (statusCode === 401 || statusCode === 403) {
			throw new TokenExchangeError(rejectedKeyMessage(statusCode), 'rejected');
		}
		if (statusCode < 200 || statusCode >= 300) {
			const said =
				typeof body.message === 'string' ? `: ${redactor.text(body.message).slice(0, 300)}` : '';
			const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
			throw new TokenExchangeError(
				`The token exchange failed with HTTP ${statusCode}${tries}${said}`,
				'failed',
			);
		}
		const token = body.access_token;
		if (typeof token !== 'string' || token === '') {
			throw new TokenExchangeError('The token exchange answered without an access_token', 'failed');
		}
		return issued(token, body.expires_in);
	}
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

function parseBody(body: unknown): IDataObject {
	if (typeof body === 'string') {
		try {
			return JSON.parse(body) as IDataObject;
		} catch {
			return {};
		}
	}
	return (body ?? {}) as IDataObject;
}

import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { describeNetworkFailure } from './api-errors';
import type { ApiCredentials } from './credential-values';
import { jwtTimes, type IssuedToken, obtainToken, tokenCacheKey } from './token-cache';

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

interface FullResponse {
	statusCode: number;
	body: unknown;
}

/**
 * Raised when POST /auth fails; its message never contains the key, the customer id or a token.
 * It carries no status property on purpose: n8n would swap the message for a generic one.
 */
export class TokenExchangeError extends Error {
	constructor(
		message: string,
		readonly reason: 'rejected' | 'unreachable' | 'failed',
	) {
		super(message);
		this.name = 'TokenExchangeError';
	}
}

/** What the user reads when POST /auth refuses the key (the credential test shows the same text). */
export function rejectedKeyMessage(status: number): string {
	return `The API rejected the API key or the customer ID (HTTP ${status}): check both in the credential, and that they belong to the chosen environment`;
}

/** POST {base}/auth with the key and customer id in headers, as the vendor documents it. */
export async function exchangeToken(httpRequest: HttpRequest, credentials: ApiCredentials): Promise<IssuedToken> {
	if (!credentials.apiKey || !credentials.customerId) {
		throw new TokenExchangeError('The credential needs both an API key and a customer ID', 'rejected');
	}
	let response: FullResponse | undefined;
	let unreachable: unknown;
	try {
		response = (await httpRequest({
			method: 'POST',
			url: `${credentials.baseUrl}/auth`,
			headers: {
				'Api-Key': credentials.apiKey,
				'Customer-Id': credentials.customerId,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: '',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as FullResponse;
	} catch (error) {
		unreachable = error;
	}
	if (response === undefined) {
		throw new TokenExchangeError(
			`Could not reach the verification API at ${credentials.baseUrl} (${describeNetworkFailure(unreachable)}): check the base URL of the credential's environment`,
			'unreachable',
		);
	}
	const body = parseBody(response.body);
	if (response.statusCode === 401 || response.statusCode === 403) {
		throw new TokenExchangeError(rejectedKeyMessage(response.statusCode), 'rejected');
	}
	if (response.statusCode < 200 || response.statusCode >= 300) {
		throw new TokenExchangeError(
			`The token exchange failed with HTTP ${response.statusCode}${typeof body.message === 'string' ? `: ${body.message}` : ''}`,
			'failed',
		);
	}
	const token = body.access_token;
	if (typeof token !== 'string' || token === '') {
		throw new TokenExchangeError('The token exchange answered without an access_token', 'failed');
	}
	const now = Date.now();
	const fromExpiresIn = typeof body.expires_in === 'number' ? now + body.expires_in * 1000 : undefined;
	const candidates = [fromExpiresIn, jwtTimes(token).expiresAtMs].filter((t): t is number => t !== undefined);
	// The interface promises 60 minutes when neither expires_in nor the JWT says otherwise.
	const expiresAtMs = candidates.length ? Math.min(...candidates) : now + 3_600_000;
	return { token, expiresAtMs, lifetimeMs: Math.max(expiresAtMs - now, 0) };
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

/**
 * A fresh token for these credentials, exchanging at most once at a time per credential. A caller
 * that sends many requests passes the cache key it computed once.
 */
export async function freshToken(
	httpRequest: HttpRequest,
	credentials: ApiCredentials,
	rejected?: string,
	key = tokenCacheKey(credentials.baseUrl, credentials.apiKey, credentials.customerId),
): Promise<string> {
	return await obtainToken(key, async () => await exchangeToken(httpRequest, credentials), rejected);
}

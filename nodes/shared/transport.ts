import {
	type IAllExecuteFunctions,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type JsonObject,
	NodeApiError,
	sleep,
} from 'n8n-workflow';

import { AUTH_HINT, apiError, networkError } from './api-errors';
import { type ApiCredentials, CREDENTIAL_TYPE, readCredentials } from './credential-values';
import type { ApiRequest } from './operation-types';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from './request-settings';
import { type Pacer, pacerFor } from './pacing';
import { isFresh, jwtTimes, rememberToken, tokenCacheKey } from './token-cache';
import { freshToken, TokenExchangeError } from './token-exchange';

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** Any n8n context that has credentials and request helpers: execute, load options, hooks, webhooks. */
export type RequestContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequest' | 'httpRequestWithAuthentication'>;
};

export interface SendOptions {
	itemIndex: number;
	/** The operation's name, quoted in errors. */
	operation: string;
	/** Safe to send again after a network error (see OperationDefinition.repeatable). */
	repeatable: boolean;
	/** Extra request options, e.g. a timeout for the trigger's bounded enrichment call. */
	request?: Partial<IHttpRequestOptions>;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * The one request path of every node: token, throttling, per-request retries of 429/503 (and of
 * network errors for repeatable operations), one token refresh on 401, and error mapping.
 * n8n's routing engine sends all items at once and retries whole nodes, so the loop lives here.
 */
export class ApiClient {
	/** Shared by every run in this process that uses the same account (see pacing.ts). */
	private readonly pacer: Pacer;
	private readonly cacheKey: string;
	private readonly credentials: ApiCredentials;
	/**
	 * The credential as read once per run, handed to every request. Without it n8n reads and decrypts
	 * the credential from its database again for each request (two queries that sqlite serialises):
	 * about 6 % of a 1,000-item run at 50 ms latency in bench/, far more when the machine is busy.
	 * n8n's preAuthentication writes a new token into this object, so one exchange serves the whole run.
	 */
	private readonly credentialsDecrypted: ICredentialsDecrypted;

	private constructor(
		private readonly ctx: RequestContext,
		data: ICredentialDataDecryptedObject,
		private readonly settings: RequestSettings,
	) {
		this.credentials = readCredentials(data);
		const stored = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		this.credentialsDecrypted = { id: stored?.id ?? '', name: stored?.name ?? '', type: CREDENTIAL_TYPE, data: { ...data } };
		this.cacheKey = tokenCacheKey(this.credentials.baseUrl, this.credentials.apiKey, this.credentials.customerId);
		this.pacer = pacerFor(this.cacheKey);
		adoptStoredToken(this.cacheKey, this.credentials.accessToken);
	}

	static async create(ctx: RequestContext, settings: RequestSettings): Promise<ApiClient> {
		return new ApiClient(ctx, await ctx.getCredentials(CREDENTIAL_TYPE), settings);
	}

	async send(request: ApiRequest, options: SendOptions): Promise<ApiResponse> {
		let attempts = 0;
		let refreshedAfter401 = false;
		for (;;) {
			const token = await this.currentToken();
			await this.pacer.acquire(this.settings.maxRequestsPerSecond);
			attempts++;
			let response: ApiResponse;
			try {
				response = await this.transmit(request, options);
			} catch (error) {
				this.pacer.release();
				if (options.repeatable && attempts <= this.settings.maxRetries) {
					await sleep(backoffMs(attempts));
					continue;
				}
				throw networkError(this.ctx.getNode(), {
					error,
					operation: options.operation,
					itemIndex: options.itemIndex,
					baseUrl: this.credentials.baseUrl,
					retried: options.repeatable && attempts > 1,
				});
			}
			this.pacer.release();
			const { statusCode } = response;
			if (statusCode >= 200 && statusCode < 300) {
				this.pacer.recordSuccess();
				return response;
			}
			// A 401 means the request was not processed: renewing the token and resending is safe.
			if (statusCode === 401 && !refreshedAfter401) {
				refreshedAfter401 = true;
				attempts--;
				await this.currentToken(token);
				continue;
			}
			if ((statusCode === 429 || statusCode === 503) && attempts <= this.settings.maxRetries) {
				const waitMs = retryAfterMs(response.headers) ?? backoffMs(attempts);
				if (statusCode === 429) this.pacer.rateLimited(waitMs);
				await sleep(waitMs);
				continue;
			}
			throw apiError(this.ctx.getNode(), {
				statusCode,
				body: response.body,
				operation: options.operation,
				itemIndex: options.itemIndex,
				attempts,
			});
		}
	}

	private async transmit(request: ApiRequest, options: SendOptions): Promise<ApiResponse> {
		const raw = (await this.ctx.helpers.httpRequestWithAuthentication.call(this.ctx as IAllExecuteFunctions, CREDENTIAL_TYPE, {
			method: request.method,
			url: `${this.credentials.baseUrl}${request.path}`,
			...(request.body !== undefined ? { body: request.body } : {}),
			...(request.qs !== undefined ? { qs: request.qs } : {}),
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			...options.request,
		}, { credentialsDecrypted: this.credentialsDecrypted })) as { statusCode: number; headers?: IDataObject; body: unknown };
		return { statusCode: raw.statusCode, headers: raw.headers ?? {}, body: raw.body };
	}

	/**
	 * Makes sure the token cache holds a fresh token before the request goes out; the credential's
	 * authenticate() then reads it. A failed exchange becomes the item's error, with what to do.
	 */
	private async currentToken(rejected?: string): Promise<string> {
		let failure: TokenExchangeError | undefined;
		try {
			return await freshToken(this.ctx.helpers.httpRequest, this.credentials, rejected, this.cacheKey);
		} catch (error) {
			failure = error instanceof TokenExchangeError ? error : new TokenExchangeError(String(error), 'failed');
		}
		throw new NodeApiError(this.ctx.getNode(), { message: failure.message } as JsonObject, {
			message: failure.message,
			description: failure.reason === 'rejected' ? AUTH_HINT : undefined,
		});
	}
}

/** A valid token n8n stored with the credential is adopted, so a new process needs no exchange. */
function adoptStoredToken(cacheKey: string, stored: string): void {
	const { expiresAtMs, issuedAtMs } = stored ? jwtTimes(stored) : {};
	if (expiresAtMs === undefined) return;
	const token = { token: stored, expiresAtMs, lifetimeMs: expiresAtMs - (issuedAtMs ?? expiresAtMs - 3_600_000) };
	if (isFresh(token)) rememberToken(cacheKey, token);
}

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: IDataObject): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.min(Math.max(seconds * 1000, 0), MAX_BACKOFF_MS * 4);
	const at = Date.parse(String(raw));
	return Number.isNaN(at) ? undefined : Math.min(Math.max(at - Date.now(), 0), MAX_BACKOFF_MS * 4);
}

/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s ... capped, each randomised. */
export function backoffMs(attempt: number): number {
	const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1));
	return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** One request outside a node run (load options, trigger hooks and webhooks), with default settings. */
export async function requestOnce(
	ctx: RequestContext,
	request: ApiRequest,
	options: Omit<SendOptions, 'itemIndex'>,
): Promise<ApiResponse> {
	const client = await ApiClient.create(ctx, DEFAULT_REQUEST_SETTINGS);
	return await client.send(request, { itemIndex: 0, ...options });
}

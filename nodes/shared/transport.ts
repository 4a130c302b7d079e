import {
	type IAllExecuteFunctions,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	sleep,
} from 'n8n-workflow';

import { checkAnswer, contentTypeOf, decodeBytes } from './answer-check';
import { apiError, isTimeout, networkError, tokenError, unexpectedAnswerError } from './errors';
import { type ApiCredentials, CREDENTIAL_TYPE, readCredentials } from './credential-values';
import type { ApiRequest, ApiResponse, ErrorHints, ResponseExpectation } from './operation-types';
import { Redactor } from './redact';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from './request-settings';
import { backoffMs, retryAfterMs } from './retry-timing';
import { type Pacer, pacerFor } from './pacing';
import { isFresh, jwtTimes, rememberToken, tokenCacheKey } from './token-cache';
import { freshToken } from './token-exchange';

export type { ApiResponse } from './operation-types';
export { backoffMs, retryAfterMs } from './retry-timing';

/** Any n8n context that has credentials and request helpers: execute, load options, hooks, webhooks. */
export type RequestContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequest' | 'httpRequestWithAuthentication'>;
};

export interface SendOptions {
	itemIndex: number;
	/** The operation's name, quoted in errors. */
	operation: string;
	/**
	 * Safe to send again (see OperationDefinition.repeatable). When false the request is resent only
	 * after 401 and 429, answers that mean the API refused it before acting.
	 */
	repeatable: boolean;
	/** A non-2xx response the operation takes as an answer (see OperationDefinition.acceptsAnswer). */
	acceptsAnswer?: (statusCode: number, body: unknown) => boolean;
	/** What a 2xx answer must be; default a JSON object or array. */
	expects?: ResponseExpectation;
	/** The operation's hints for refused requests, filled with the item's values. */
	hints?: ErrorHints;
	/** Values of this request that are secrets (an OTP code, webhook auth headers). */
	secrets?: unknown[];
	/** Extra request options, e.g. a timeout for the trigger's bounded enrichment call. */
	request?: Partial<IHttpRequestOptions>;
}

/** A read that timed out is tried once more, so a silent API fails an item within about two minutes. */
const MAX_TIMEOUT_RETRIES = 1;

/** What a request whose answer may be a file accepts; it is received as bytes (decodeBytes parses JSON). */
const FILE_ACCEPT = 'application/json, */*;q=0.8';

/**
 * The one request path of every node: token, throttling, per-request retries of 429/503 (and of
 * network errors and a timeout for repeatable operations), one token refresh on 401, the check that
 * a 2xx is the answer expected, error mapping, and redaction of every secret from what it throws.
 * n8n's routing engine sends all items at once and retries whole nodes, so the loop lives here.
 */
export class ApiClient {
	/** Shared by every run in this process that uses the same account (see pacing.ts). */
	private readonly pacer: Pacer;
	private readonly cacheKey: string;
	private readonly credentials: ApiCredentials;
	private readonly timeoutMs: number;
	/** Key, customer id, and every token this client saw: cut out of everything it throws. */
	private readonly redactor: Redactor;
	/**
	 * The credential as read once per run, handed to every request. Without it n8n reads and decrypts
	 * the credential from its database again for each request (two queries that sqlite serialises):
	 * about 6 % of a 1,000-item run at 50 ms latency in bench/, far more when the machine is busy.
	 * The token itself comes from the credential's token cache (token-cache.ts), shared per credential.
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
		this.timeoutMs = Math.round(settings.timeoutSeconds * 1000);
		this.redactor = new Redactor([this.credentials.apiKey, this.credentials.customerId, this.credentials.accessToken]);
		this.pacer = pacerFor(this.cacheKey);
		adoptStoredToken(this.cacheKey, this.credentials.accessToken);
	}

	static async create(ctx: RequestContext, settings: RequestSettings): Promise<ApiClient> {
		return new ApiClient(ctx, await ctx.getCredentials(CREDENTIAL_TYPE), settings);
	}

	/** Everything the client throws has passed through here. */
	async send(request: ApiRequest, options: SendOptions): Promise<ApiResponse> {
		const redactor = options.secrets?.length ? this.redactor.with(...options.secrets) : this.redactor;
		try {
			return await this.attempt(request, options, redactor);
		} catch (error) {
			throw redactor.with(...this.tokensSeen).error(error);
		}
	}

	private readonly tokensSeen = new Set<string>();

	private async attempt(request: ApiRequest, options: SendOptions, redactor: Redactor): Promise<ApiResponse> {
		let attempts = 0;
		let timeouts = 0;
		let refreshedAfter401 = false;
		for (;;) {
			const token = await this.currentToken(options);
			await this.pacer.acquire(this.settings.maxRequestsPerSecond);
			attempts++;
			let response: ApiResponse;
			const sentAt = Date.now();
			try {
				response = await this.transmit(request, options);
			} catch (error) {
				// n8n 1.x wraps the timeout into an error without its code: the elapsed time tells too.
				const timedOut = isTimeout(error) || Date.now() - sentAt >= this.timeoutMs - 50;
				if (timedOut) timeouts++;
				const mayRetry = timedOut ? timeouts <= MAX_TIMEOUT_RETRIES : attempts <= this.settings.maxRetries;
				this.pacer.release();
				if (options.repeatable && mayRetry) {
					await sleep(backoffMs(attempts));
					continue;
				}
				throw networkError(this.ctx.getNode(), {
					error: timedOut ? { code: 'ETIMEDOUT' } : error,
					operation: options.operation,
					itemIndex: options.itemIndex,
					baseUrl: this.credentials.baseUrl,
					attempts,
					repeatable: options.repeatable,
					timeoutMs: this.timeoutMs,
				});
			}
			this.pacer.release();
			const { statusCode } = response;
			if (statusCode >= 200 && statusCode < 300) {
				this.pacer.recordSuccess();
				return this.trusted(response, options, redactor);
			}
			// A 401 means the request was not processed: renewing the token and resending is safe.
			if (statusCode === 401 && !refreshedAfter401) {
				refreshedAfter401 = true;
				attempts--;
				await this.currentToken(options, token);
				continue;
			}
			// 429 means refused before acting; a 503 may come after the API acted, so only reads repeat it.
			const retryable = statusCode === 429 || (statusCode === 503 && options.repeatable);
			if (retryable && attempts <= this.settings.maxRetries) {
				const waitMs = retryAfterMs(response.headers) ?? backoffMs(attempts);
				if (statusCode === 429) this.pacer.rateLimited(waitMs);
				await sleep(waitMs);
				continue;
			}
			if (options.acceptsAnswer?.(statusCode, response.body)) {
				this.pacer.recordSuccess();
				return response;
			}
			throw apiError(this.ctx.getNode(), {
				statusCode,
				body: redactor.with(...this.tokensSeen).value(response.body),
				operation: options.operation,
				itemIndex: options.itemIndex,
				attempts,
				repeatable: options.repeatable,
				hints: options.hints,
			});
		}
	}

	/** A 2xx is used only when it is the JSON the operation expects; anything else says what arrived. */
	private trusted(response: ApiResponse, options: SendOptions, redactor: Redactor): ApiResponse {
		const check = checkAnswer(response, options.expects);
		if (check.trusted) return { ...response, body: check.body };
		throw unexpectedAnswerError(this.ctx.getNode(), {
			statusCode: response.statusCode,
			operation: options.operation,
			itemIndex: options.itemIndex,
			expected: check.expected,
			arrived: redactor.with(...this.tokensSeen).text(check.arrived),
			repeatable: options.repeatable,
		});
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
			timeout: this.timeoutMs,
			...(request.answerAsBytes ? { headers: { Accept: FILE_ACCEPT }, encoding: 'arraybuffer' as const } : {}),
			...options.request,
		}, { credentialsDecrypted: this.credentialsDecrypted })) as { statusCode: number; headers?: IDataObject; body: unknown };
		const headers = raw.headers ?? {};
		return { statusCode: raw.statusCode, headers, body: decodeBytes(raw.body, contentTypeOf(headers)) };
	}

	/**
	 * Makes sure the token cache holds a fresh token before the request goes out; the credential's
	 * authenticate() then reads it. A failed exchange becomes the item's error, with what to do.
	 */
	private async currentToken(options: SendOptions, rejected?: string): Promise<string> {
		try {
			const token = await freshToken(this.ctx.helpers.httpRequest, this.credentials, rejected, this.cacheKey, {
				timeoutMs: this.timeoutMs,
				maxRetries: this.settings.maxRetries,
			});
			this.tokensSeen.add(token);
			return token;
		} catch (error) {
			throw tokenError(this.ctx.getNode(), error, options.operation, options.itemIndex);
		}
	}
}

/** A valid token n8n stored with the credential is adopted, so a new process needs no exchange. */
function adoptStoredToken(cacheKey: string, stored: string): void {
	const { expiresAtMs, issuedAtMs } = stored ? jwtTimes(stored) : {};
	if (expiresAtMs === undefined) return;
	const token = { token: stored, expiresAtMs, lifetimeMs: expiresAtMs - (issuedAtMs ?? expiresAtMs - 3_600_000) };
	if (isFresh(token)) rememberToken(cacheKey, token);
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

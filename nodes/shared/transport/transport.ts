import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { checkAnswer, contentTypeOf, decodeBytes, decodeText } from './answer-check';
import {
	AnswerRefused,
	type BoundedAnswer,
	boundedRequest,
	InsecureLink,
	MAX_ANSWER_BYTES,
} from './bounded-request';
import { type ApiCredentials, CREDENTIAL_TYPE, readNodeCredentials } from './credential-values';
import {
	answerRefusedError,
	apiError,
	networkError,
	tokenError,
	unexpectedAnswerError,
} from './errors';
import { networkFailure, timedOut } from './network-failure';
import type {
	ApiRequest,
	ApiResponse,
	ErrorHints,
	ResponseExpectation,
} from '../operation/operation-types';
import { type Pacer, pacerFor } from './pacing';
import { Redactor } from './redact';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from './request-settings';
import {
	type SendOutcome,
	markMayHaveBeenCarriedOut,
	mayGoOutAgain,
	mayHaveBeenCarriedOut,
	outcomeOfNetworkFailure,
	outcomeOfStatus,
	receiptIn,
} from './resend-rule';
import { backoffMs, retryAfterMs } from './retry-timing';
import { recallSend, rememberSend } from './sent-requests';
import { credentialKey, tokenFor } from './token-cache';
import { ExecutionCancelled, wait } from './wait';

/** Any n8n context that has credentials and the request helper: execute, load options, hooks, webhooks. */
export type RequestContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequest'>;
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
	/** Where the answer names what the API did (OperationDefinition.receipt): kept in the error of an answer the node cannot use. */
	receipt?: string;
	/**
	 * This request's place in the execution (sent-requests.ts) when n8n may run it again (Retry On
	 * Fail): a request that must not go out again gets what it got the first time.
	 */
	sendKey?: string;
}

/** A read that timed out is tried once more, so a silent API fails an item within about two minutes. */
const MAX_TIMEOUT_RETRIES = 1;

/** What a request whose answer may be a file accepts; it is received as bytes (decodeBytes parses JSON). */
const FILE_ACCEPT = 'application/json, */*;q=0.8';

/**
 * The one request path of every node. Per request: admission by the account's pacer, then the
 * token (so a long pause never sends a stale one), the request with the bearer token, the retries
 * (429 and 503, and network errors and a timeout for repeatable operations, one token renewal after
 * 401), the check that a 2xx is the answer expected, the error mapping, and redaction of every
 * secret from what it throws. Each request follows no redirect and has one deadline for its whole
 * answer and a size cap (bounded-request.ts). `signal` (the execution's cancel signal, or the
 * trigger's deadline) ends every wait and the request under way at once; nothing more is sent.
 */
export class ApiClient {
	/** Shared by every run in this process that uses the same account (see pacing.ts). */
	private readonly pacer: Pacer;
	private readonly key: string;
	private readonly timeoutMs: number;
	/** Key, customer id, and every token this client saw: cut out of everything it throws. */
	private readonly redactor: Redactor;
	private readonly tokensSeen = new Set<string>();

	private constructor(
		private readonly ctx: RequestContext,
		private readonly credentials: ApiCredentials,
		private readonly settings: RequestSettings,
		private readonly signal?: AbortSignal,
	) {
		this.key = credentialKey(credentials);
		this.timeoutMs = Math.round(settings.timeoutSeconds * 1000);
		this.redactor = new Redactor([
			credentials.apiKey,
			credentials.customerId,
			credentials.accessToken,
		]);
		this.pacer = pacerFor(this.key);
	}

	static async create(
		ctx: RequestContext,
		settings: RequestSettings,
		signal?: AbortSignal,
	): Promise<ApiClient> {
		return new ApiClient(
			ctx,
			readNodeCredentials(ctx.getNode(), await ctx.getCredentials(CREDENTIAL_TYPE)),
			settings,
			signal,
		);
	}

	/**
	 * How many items of this run may be under way now: the account's concurrency window (shared by
	 * every execution of the process), at most the run's Max Concurrent Requests when it set one.
	 */
	get concurrency(): number {
		const cap = this.settings.maxConcurrentRequests;
		return cap > 0 ? Math.min(cap, this.pacer.inFlightWindow) : this.pacer.inFlightWindow;
	}

	/**
	 * Everything the client throws has passed through here. A request that must not go out again
	 * (resend-rule.ts) and that an earlier try of this node run sent gets that try's answer or error.
	 */
	async send(request: ApiRequest, options: SendOptions): Promise<ApiResponse> {
		const { sendKey } = options;
		const earlier = sendKey !== undefined ? recallSend(sendKey) : undefined;
		if (earlier) {
			if ('response' in earlier) return earlier.response;
			throw earlier.error;
		}
		const redactor = options.secrets?.length
			? this.redactor.with(...options.secrets)
			: this.redactor;
		const progress: { outcome: SendOutcome } = { outcome: 'notSent' };
		try {
			const response = await this.attempt(request, options, redactor, progress);
			if (sendKey !== undefined && !mayGoOutAgain('answered', options.repeatable))
				rememberSend(sendKey, { response });
			return response;
		} catch (error) {
			const redacted = redactor.with(...this.tokensSeen).error(error);
			const mayHaveActed = !mayGoOutAgain(progress.outcome, options.repeatable);
			if (
				mayHaveActed &&
				error !== null &&
				typeof error === 'object' &&
				!mayHaveBeenCarriedOut(error)
			) {
				markMayHaveBeenCarriedOut(error);
			}
			if (sendKey !== undefined && mayHaveActed) rememberSend(sendKey, { error: redacted });
			throw redacted;
		}
	}

	/**
	 * The request with its retries. `progress.outcome` follows what became of the latest sending, for
	 * send() to apply the resend rule to whatever this throws.
	 */
	private async attempt(
		request: ApiRequest,
		options: SendOptions,
		redactor: Redactor,
		progress: { outcome: SendOutcome },
	): Promise<ApiResponse> {
		let attempts = 0;
		let timeouts = 0;
		let rejected: string | undefined;
		let renewedAfter401 = false;
		for (;;) {
			const admission = await this.pacer.acquire(this.settings.maxRequestsPerSecond, this.signal);
			let token: string;
			let response: ApiResponse | undefined;
			let failure: unknown;
			let sentAt: number;
			try {
				token = await this.token(options, rejected);
				attempts++;
				sentAt = Date.now();
				progress.outcome = 'mayHaveBeenCarriedOut';
				response = await this.transmit(request, token, options.repeatable).catch(
					(error: unknown) => {
						failure = error;
						return undefined;
					},
				);
				progress.outcome =
					response !== undefined
						? outcomeOfStatus(response.statusCode)
						: outcomeOfNetworkFailure(networkFailure(failure).code);
			} finally {
				this.pacer.release();
			}
			// A request that must not go out again was let finish (see transmit): its answer is reported.
			if (this.signal?.aborted && mayGoOutAgain(progress.outcome, options.repeatable))
				throw new ExecutionCancelled();
			// A redirect or an oversized body would be the same when sent again.
			if (failure instanceof AnswerRefused)
				throw answerRefusedError(this.ctx.getNode(), failure, options);

			if (response === undefined) {
				const late = timedOut(failure, sentAt, this.timeoutMs);
				if (late) timeouts++;
				this.pacer.overloaded(admission);
				const mayRetry = late
					? timeouts <= MAX_TIMEOUT_RETRIES
					: attempts <= this.settings.maxRetries;
				if (mayGoOutAgain(progress.outcome, options.repeatable) && mayRetry) {
					await wait(backoffMs(attempts), this.signal);
					continue;
				}
				throw networkError(this.ctx.getNode(), {
					error: failure,
					timedOut: late,
					operation: options.operation,
					itemIndex: options.itemIndex,
					baseUrl: this.credentials.baseUrl,
					attempts,
					// A request that never reached the API is described as a read's: nothing can have happened.
					repeatable: mayGoOutAgain(progress.outcome, options.repeatable),
					timeoutMs: this.timeoutMs,
				});
			}

			const { statusCode } = response;
			if (statusCode >= 200 && statusCode < 300) {
				this.pacer.recordSuccess(admission);
				const trusted = this.trusted(response, options, redactor);
				if ('response' in trusted) return trusted.response;
				progress.outcome = 'mayHaveBeenCarriedOut';
				throw trusted.unusable;
			}
			if (statusCode === 503) this.pacer.overloaded(admission);
			// A 401 means the request was not processed: renewing the token and resending is safe.
			if (statusCode === 401 && !renewedAfter401) {
				renewedAfter401 = true;
				rejected = token!;
				attempts--;
				continue;
			}
			// 429 means refused before acting; a 503 may come after the API acted, so only reads repeat it.
			const retryable =
				(statusCode === 429 || statusCode === 503) &&
				mayGoOutAgain(progress.outcome, options.repeatable);
			if (retryable && attempts <= this.settings.maxRetries) {
				const waitMs = retryAfterMs(response.headers) ?? backoffMs(attempts);
				if (statusCode === 429) this.pacer.rateLimited(admission, waitMs);
				await wait(waitMs, this.signal);
				continue;
			}
			if (options.acceptsAnswer?.(statusCode, response.body)) {
				this.pacer.recordSuccess(admission);
				progress.outcome = 'answered';
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

	/** A fresh token from the process-wide cache; a failed exchange becomes the item's error, with what to do. */
	private async token(options: SendOptions, rejected: string | undefined): Promise<string> {
		const token = await tokenFor(this.ctx.helpers.httpRequest, this.credentials, {
			key: this.key,
			rejected,
			signal: this.signal,
			timeoutMs: this.timeoutMs,
			maxRetries: this.settings.maxRetries,
		}).catch((error: unknown) => {
			const failure =
				error instanceof ExecutionCancelled
					? error
					: tokenError(this.ctx.getNode(), error, options.operation, options.itemIndex);
			return Promise.reject(failure);
		});
		this.tokensSeen.add(token);
		return token;
	}

	/**
	 * One sending, held to the rules of boundedRequest: no redirect, one deadline for the whole answer,
	 * a size cap. The execution's cancel signal ends a repeatable request at once; a request that must
	 * not go out again (money, messages) is let finish within that deadline, so that its answer, the
	 * receipt of what the API did, is reported rather than lost.
	 */
	private async transmit(
		request: ApiRequest,
		token: string,
		repeatable: boolean,
	): Promise<ApiResponse> {
		const options: IHttpRequestOptions = {
			method: request.method,
			url: `${this.credentials.baseUrl}${request.path}`,
			headers: {
				Authorization: `Bearer ${token}`,
				...(request.answerAsBytes ? { Accept: FILE_ACCEPT } : {}),
			},
			...(request.body !== undefined ? { body: request.body } : {}),
			...(request.qs !== undefined ? { qs: request.qs } : {}),
			json: true,
		};
		const raw = await boundedRequest(this.ctx.helpers.httpRequest, options, {
			timeoutMs: this.timeoutMs,
			maxBytes: MAX_ANSWER_BYTES,
			signal: repeatable ? this.signal : undefined,
		});
		const body = request.answerAsBytes
			? decodeBytes(raw.body, contentTypeOf(raw.headers))
			: decodeText(raw.body);
		return { statusCode: raw.statusCode, headers: raw.headers, body };
	}

	/**
	 * A file the API links to (a pre-signed URL), fetched without the token under the same rules as
	 * every request: https only (plain http only on the credential's own origin, such as a local
	 * sandbox), no redirect, the deadline, the size cap and the cancel signal.
	 */
	async download(url: string): Promise<BoundedAnswer> {
		const target = new URL(url);
		if (
			target.protocol !== 'https:' &&
			target.origin !== new URL(this.credentials.baseUrl).origin
		) {
			throw new InsecureLink(target.origin);
		}
		return await boundedRequest(
			this.ctx.helpers.httpRequest,
			{ method: 'GET', url },
			{
				timeoutMs: this.timeoutMs,
				maxBytes: MAX_ANSWER_BYTES,
				signal: this.signal,
			},
		).catch((error: unknown) =>
			Promise.reject(this.signal?.aborted ? new ExecutionCancelled() : error),
		);
	}

	/**
	 * A 2xx is used only when it is the JSON the operation expects; anything else says what arrived.
	 * For a request that must not go out again the error keeps the whole answer, redacted, and its
	 * receipt: the API accepted it, so it may have been carried out.
	 */
	private trusted(
		response: ApiResponse,
		options: SendOptions,
		redactor: Redactor,
	): { response: ApiResponse } | { unusable: Error } {
		const check = checkAnswer(response, options.expects);
		if (check.trusted) return { response: { ...response, body: check.body } };
		const redact = redactor.with(...this.tokensSeen);
		const keepsReceipt = !mayGoOutAgain('mayHaveBeenCarriedOut', options.repeatable);
		const answer = keepsReceipt ? redact.value(check.body) : undefined;
		const receipt = keepsReceipt ? receiptIn(answer, options.receipt) : {};
		const error = unexpectedAnswerError(this.ctx.getNode(), {
			statusCode: response.statusCode,
			operation: options.operation,
			itemIndex: options.itemIndex,
			expected: check.expected,
			arrived: redact.text(check.arrived),
			repeatable: options.repeatable,
			...(keepsReceipt ? { answer, ...receipt } : {}),
		});
		if (keepsReceipt) markMayHaveBeenCarriedOut(error, { answer, ...receipt });
		return { unusable: error };
	}
}

/** One request outside a node run (load options, trigger hooks and webhooks), with default settings. */
export async function requestOnce(
	ctx: RequestContext,
	request: ApiRequest,
	options: Omit<SendOptions, 'itemIndex'>,
	settings: RequestSettings = DEFAULT_REQUEST_SETTINGS,
	signal?: AbortSignal,
): Promise<ApiResponse> {
	const client = await ApiClient.create(ctx, settings, signal);
	return await client.send(request, { itemIndex: 0, ...options });
}

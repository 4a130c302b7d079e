import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { contentTypeOf, decodeBytes, decodeText } from './response-check';
import {
	ResponseRefused,
	type RawResponse,
	limitedRequest,
	InsecureLink,
	MAX_RESPONSE_BYTES,
	RedirectRefused,
} from './limited-request';
import {
	type TransmitResult,
	type Sendings,
	classify,
	type SendRules,
	type Verdict,
} from './classify';
import {
	accountFingerprint,
	type ApiCredentials,
	API_CREDENTIAL_TYPE,
	readNodeCredentials,
} from './credential-values';
import { type RequestAbout, requestError } from './errors';
import {
	deadlineWords,
	type Failure,
	networkFailure,
	RequestFailed,
	timedOut,
} from './request-failure';
import { type Pacer, pacerFor } from './pacing';
import { Redactor } from './redact';
import {
	type ApiRequest,
	type ApiResponse,
	DEFAULT_REQUEST_SETTINGS,
	type RequestSettings,
} from './request-types';
import { recallSend, rememberSend } from './sent-requests';
import { credentialKey, tokenFor } from './token-cache';
import { TokenExchangeError } from './token-exchange';
import { ExecutionCancelled, wait } from './wait';

/** Any n8n context that has credentials and the request helper: execute, load options, hooks, webhooks. */
export type RequestContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequest'>;
};

export interface SendOptions extends Omit<SendRules, 'maxRetries'> {
	/** Values of this request that are secrets (an OTP code, webhook auth headers). */
	secrets?: unknown[];
	/**
	 * This request's place in the execution (sent-requests.ts) when n8n may run it again (Retry On
	 * Fail): a request that must not go out again gets what it got the first time.
	 */
	sendKey?: string;
}

/** What a request whose answer may be a file accepts; it is received as bytes (decodeBytes parses JSON). */
const FILE_ACCEPT = 'application/json, */*;q=0.8';

/**
 * The one request path of every node, one sending after another until classify.ts says it is done:
 *
 * 1. admit: the account's pacer admits the sending (its concurrency window and pace, pacing.ts);
 * 2. authorize: a token from the process-wide cache, after admission, so a long pause never sends a
 *    stale one;
 * 3. transmit: one sending under limitedRequest's rules (no redirect, one deadline for the whole
 *    answer, a size cap), its body decoded once;
 * 4. classify: what happens next, a pure decision (ok, retry after a pause, renew the token, an
 *    accepted refusal, cancelled, fail);
 * 5. settle: the pacer learns the outcome, in one call;
 * 6. leave: a failure leaves redacted, as RequestFailed; the caller's boundary shapes it into the
 *    error n8n shows (errors.ts `requestError`, where the operation's hints are known).
 *
 * `signal` (the execution's cancel signal, or the trigger's deadline) ends every wait and the
 * request under way at once; nothing more is sent.
 */
export class ApiClient {
	/** Shared by every run in this process that uses the same account (see pacing.ts). */
	private readonly pacer: Pacer;
	private readonly key: string;
	private readonly timeoutMs: number;
	/** Key, customer id, and every token this client saw: cut out of everything that leaves. */
	private readonly redactor: Redactor;
	private readonly tokensSeen = new Set<string>();

	/**
	 * A client of one account (base URL, API key, customer id): its token, pacer, concurrency window
	 * and refused-key memory are that account's, shared with every client of the same account in this
	 * process and with no other account.
	 */
	constructor(
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

	/** A client of the node's credential as it resolves without an item (load options, trigger hooks). */
	static async create(
		ctx: RequestContext,
		settings: RequestSettings,
		signal?: AbortSignal,
	): Promise<ApiClient> {
		return new ApiClient(
			ctx,
			readNodeCredentials(ctx.getNode(), await ctx.getCredentials(API_CREDENTIAL_TYPE)),
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

	/** Which of the credential's environments this client sends to. */
	get environment(): ApiCredentials['environment'] {
		return this.credentials.environment;
	}

	/** The account's fingerprint (credential-values.ts `accountFingerprint`): no secret. */
	get account(): string {
		return accountFingerprint(this.credentials);
	}

	/** What cuts every secret this client knows, and `secrets`, out of a text (what evidence may hash). */
	secretCutter(secrets: unknown[]): (text: string) => string {
		const redactor = secrets.length ? this.redactor.with(...secrets) : this.redactor;
		return (text) => redactor.text(text);
	}

	/**
	 * The answer the operation can use, or a RequestFailed (redacted) or ExecutionCancelled. A request
	 * that must not go out again and that an earlier try of this node run sent gets that try's answer
	 * or failure (sent-requests.ts).
	 */
	async send(request: ApiRequest, options: SendOptions): Promise<ApiResponse> {
		const { sendKey } = options;
		const earlier = sendKey !== undefined ? recallSend(sendKey) : undefined;
		if (earlier) {
			if ('response' in earlier) return earlier.response;
			throw earlier.error;
		}
		const rules: SendRules = { ...options, maxRetries: this.settings.maxRetries };
		const sendings: Sendings = {
			sent: 0,
			timeouts: 0,
			renewed: false,
			cancelled: false,
			now: 0,
			jitter: 0,
		};
		let rejected: string | undefined;
		for (;;) {
			const admission = await this.pacer.admit(this.settings.maxRequestsPerSecond, this.signal);
			// Nothing was sent when the token exchange fails: the failure may go out again.
			const token = await this.authorize(rejected).catch((error: unknown) => {
				this.pacer.settle(admission, {});
				const cancelled = error instanceof ExecutionCancelled;
				return Promise.reject(
					cancelled ? error : this.leave(tokenFailure(error), options, sendings, false),
				);
			});
			sendings.sent++;
			const sentAtMs = Date.now();
			const answer = await this.transmit(request, token, options.repeatable);
			if (answer.kind === 'noAnswer' && answer.timedOut) sendings.timeouts++;
			sendings.cancelled = this.signal?.aborted === true;
			sendings.now = Date.now();
			sendings.jitter = Math.random();
			const verdict: Verdict = classify(answer, sendings, rules);
			this.pacer.settle(admission, verdict.pace);
			switch (verdict.next) {
				case 'ok':
				case 'accepted': {
					const response = { ...verdict.response, sentAtMs, answeredAtMs: sendings.now };
					if (sendKey !== undefined && !verdict.mayGoOutAgain) rememberSend(sendKey, { response });
					return response;
				}
				case 'retry':
					await wait(verdict.afterMs, this.signal);
					continue;
				case 'renewToken':
					sendings.sent--;
					sendings.renewed = true;
					rejected = token;
					continue;
				case 'cancelled':
					throw new ExecutionCancelled();
				case 'fail': {
					const failed = this.leave(verdict.failure, options, sendings, !verdict.mayGoOutAgain);
					if (sendKey !== undefined && !verdict.mayGoOutAgain)
						rememberSend(sendKey, { error: failed });
					throw failed;
				}
			}
		}
	}

	/** A fresh token from the process-wide cache. */
	private async authorize(rejected: string | undefined): Promise<string> {
		const token = await tokenFor(this.ctx.helpers.httpRequest, this.credentials, {
			key: this.key,
			rejected,
			signal: this.signal,
			timeoutMs: this.timeoutMs,
			maxRetries: this.settings.maxRetries,
		});
		this.tokensSeen.add(token);
		return token;
	}

	/**
	 * One sending, held to the rules of limitedRequest: no redirect, one deadline for the whole answer,
	 * a size cap; its body decoded once. The execution's cancel signal ends a repeatable request at
	 * once; a request that must not go out again (money, messages) is let finish within that deadline,
	 * so that its answer, the receipt of what the API did, is reported rather than lost.
	 */
	private async transmit(
		request: ApiRequest,
		token: string,
		repeatable: boolean,
	): Promise<TransmitResult> {
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
		const sentAt = Date.now();
		try {
			const raw = await limitedRequest(this.ctx.helpers.httpRequest, options, {
				timeoutMs: this.timeoutMs,
				maxBytes: MAX_RESPONSE_BYTES,
				signal: repeatable ? this.signal : undefined,
			});
			const body = request.answerAsBytes
				? decodeBytes(raw.body, contentTypeOf(raw.headers))
				: decodeText(raw.body);
			const response = { statusCode: raw.statusCode, headers: raw.headers, body };
			return { kind: 'response', response };
		} catch (error) {
			if (error instanceof ResponseRefused) {
				const redirect = error instanceof RedirectRefused;
				return { kind: 'refused', statusCode: error.statusCode, message: error.message, redirect };
			}
			const deadline = deadlineWords(error);
			return {
				kind: 'noAnswer',
				network: networkFailure(error),
				timedOut: timedOut(error, sentAt, this.timeoutMs),
				...(deadline !== undefined ? { deadline } : {}),
			};
		}
	}

	/**
	 * The one place where a failure leaves the request path: every secret this client knows (key,
	 * customer id, the tokens it saw, the request's own secrets) cut out of it, once.
	 */
	private leave(
		failure: Failure,
		options: SendOptions,
		sendings: Sendings,
		mayHaveBeenCarriedOut: boolean,
	): RequestFailed {
		const redactor = this.redactor.with(...this.tokensSeen, ...(options.secrets ?? []));
		const redacted = Object.fromEntries(
			Object.entries(failure).map(([key, value]) => [key, redactor.value(value)]),
		) as Failure;
		return new RequestFailed(redacted, {
			attempts: sendings.sent,
			repeatable: options.repeatable,
			mayHaveBeenCarriedOut,
			baseUrl: this.credentials.baseUrl,
			timeoutMs: this.timeoutMs,
		});
	}

	/**
	 * A file the API links to (a pre-signed URL), fetched without the token under the same rules as
	 * every request: https only (plain http only on the credential's own origin, such as a local
	 * sandbox), no redirect, the deadline, the size cap and the cancel signal.
	 */
	async download(url: string): Promise<RawResponse> {
		const target = new URL(url);
		if (
			target.protocol !== 'https:' &&
			target.origin !== new URL(this.credentials.baseUrl).origin
		) {
			throw new InsecureLink(target.origin);
		}
		return await limitedRequest(
			this.ctx.helpers.httpRequest,
			{ method: 'GET', url },
			{
				timeoutMs: this.timeoutMs,
				maxBytes: MAX_RESPONSE_BYTES,
				signal: this.signal,
			},
		).catch((error: unknown) =>
			Promise.reject(this.signal?.aborted ? new ExecutionCancelled() : error),
		);
	}
}

/** A failed token exchange, as the failure of the request that waited for it. */
function tokenFailure(error: unknown): Failure {
	const exchange =
		error instanceof TokenExchangeError
			? error
			: new TokenExchangeError(String((error as Error)?.message ?? error), 'failed');
	return {
		kind: 'token',
		message: exchange.message,
		rejected: exchange.reason === 'rejected',
		...(exchange.network ? { network: exchange.network } : {}),
	};
}

/**
 * One request outside a node run (load options, trigger hooks and webhooks), with default settings;
 * its failure is shaped here, the boundary of these callers.
 */
export async function requestOnce(
	ctx: RequestContext,
	request: ApiRequest,
	options: SendOptions & Pick<RequestAbout, 'operation' | 'hints'>,
	settings: RequestSettings = DEFAULT_REQUEST_SETTINGS,
	signal?: AbortSignal,
): Promise<ApiResponse> {
	const client = await ApiClient.create(ctx, settings, signal);
	return await client.send(request, options).catch((error: unknown) => {
		if (!(error instanceof RequestFailed)) throw error;
		const { operation, hints } = options;
		throw requestError(ctx.getNode(), error, { operation, hints, itemIndex: 0 });
	});
}

import type { NetworkFailure } from './network-failure';

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

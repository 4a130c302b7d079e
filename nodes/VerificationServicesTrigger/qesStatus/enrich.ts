import { type IDataObject, NodeApiError, sleep } from 'n8n-workflow';

import { getVerification } from '../../VerificationServices/qes/operations/getVerification';
import { fillPath } from '../../shared/operation/build-request';
import { DEFAULT_REQUEST_SETTINGS } from '../../shared/transport/request-types';
import { type RequestContext, requestOnce } from '../../shared/transport/transport';
import { DEFAULT_FETCH_SECONDS } from './description';

const OPERATION = 'Get Verification';

export interface Enrichment {
	/** The full getVerification response, untouched. */
	verification?: unknown;
	/** Why there is no verification: the ping is emitted anyway. */
	verificationError?: IDataObject;
}

/**
 * GET /onboarding/getVerification/{sessionId} through the shared request path (pacer, token, error
 * mapping), tried once: the provider wants its answer within 10 s and n8n answers only after
 * webhook() returns, so a slow or failing call is reported beside the ping instead of retried. At
 * `budgetMs` the call is aborted wherever it is (waiting for the pacer, the token or the answer), so
 * it frees its pacer slot and sends nothing more; the token exchange it may have started is bounded
 * by the same time. Never throws.
 */
export async function fetchVerification(
	ctx: RequestContext,
	sessionId: string | undefined,
	budgetMs = DEFAULT_FETCH_SECONDS * 1000,
): Promise<Enrichment> {
	if (sessionId === undefined) {
		return {
			verificationError: {
				message: 'The ping names no session (sessionId, requestId or id): nothing to fetch',
			},
		};
	}
	if (!(budgetMs > 0)) return timedOut(budgetMs);
	const deadline = new AbortController();
	const settings = { ...DEFAULT_REQUEST_SETTINGS, maxRetries: 0, timeoutSeconds: budgetMs / 1000 };
	const work: Promise<Enrichment> = (async () => {
		const request = {
			method: getVerification.method,
			path: fillPath(getVerification.path, { sessionId }),
		};
		const response = await requestOnce(
			ctx,
			request,
			{ operation: OPERATION, repeatable: true },
			settings,
			deadline.signal,
		);
		return { verification: response.body };
	})().catch((error: unknown) =>
		deadline.signal.aborted ? timedOut(budgetMs) : { verificationError: describeFailure(error) },
	);

	const stopTimer = new AbortController();
	const late = sleep(budgetMs, stopTimer.signal).then(
		() => true,
		() => false,
	);
	const first = await Promise.race([work, late]);
	stopTimer.abort();
	if (first !== true && first !== false) return first;
	deadline.abort();
	return timedOut(budgetMs);
}

function timedOut(budgetMs: number): Enrichment {
	return {
		verificationError: {
			message: `${OPERATION} did not finish within ${Math.round(Math.max(0, budgetMs)) / 1000} s, so the ping is output without the result (fetch it later with IDCanopy Umbrella, QES Onboarding > Get Verification Result)`,
			timedOut: true,
		},
	};
}

function describeFailure(error: unknown): IDataObject {
	const { message, description, httpCode } = error as {
		message?: unknown;
		description?: unknown;
		httpCode?: unknown;
	};
	const code = error instanceof NodeApiError ? error.httpCode : httpCode;
	const numeric = code === null || code === undefined || code === '' ? undefined : Number(code);
	return {
		message: typeof message === 'string' && message ? message : `${OPERATION} failed`,
		...(numeric !== undefined && Number.isFinite(numeric) ? { httpCode: numeric } : {}),
		...(typeof description === 'string' && description ? { description } : {}),
	};
}

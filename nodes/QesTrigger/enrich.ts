import { type IDataObject, NodeApiError, sleep } from 'n8n-workflow';

import { getVerification } from '../Qes/operations/getVerification';
import { fillPath } from '../shared/build-request';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../shared/request-settings';
import { ApiClient, type RequestContext } from '../shared/transport';
import { DEFAULT_FETCH_SECONDS } from './description';

const OPERATION = 'Get Verification';

/**
 * One attempt, no retries: the provider wants its answer within 10 s and n8n answers only after
 * webhook() returns, so a slow or failing call is reported beside the ping instead of retried.
 */
const FETCH_SETTINGS: RequestSettings = { ...DEFAULT_REQUEST_SETTINGS, maxConcurrentRequests: 1, maxRetries: 0 };

export interface Enrichment {
	/** The full getVerification response, untouched. */
	verification?: unknown;
	/** Why there is no verification: the ping is emitted anyway. */
	verificationError?: IDataObject;
}

/**
 * GET /onboarding/getVerification/{sessionId} through the shared transport (token, 401 refresh,
 * error mapping), bounded by `budgetMs` overall (token exchange included). Never throws.
 */
export async function fetchVerification(ctx: RequestContext, sessionId: string | undefined, budgetMs = DEFAULT_FETCH_SECONDS * 1000): Promise<Enrichment> {
	if (sessionId === undefined) {
		return { verificationError: { message: 'The ping names no session (sessionId, requestId or id): nothing to fetch' } };
	}
	if (!(budgetMs > 0)) return timedOut(budgetMs);
	const work: Promise<Enrichment> = (async () => {
		const client = await ApiClient.create(ctx, FETCH_SETTINGS);
		const response = await client.send(
			{ method: getVerification.method, path: fillPath(getVerification.path, { sessionId }) },
			{ itemIndex: 0, operation: OPERATION, repeatable: true, request: { timeout: budgetMs } },
		);
		return { verification: response.body };
	})().catch((error: unknown) => ({ verificationError: describeFailure(error) }));

	const stopTimer = new AbortController();
	const deadline = sleep(budgetMs, stopTimer.signal).then(
		() => timedOut(budgetMs),
		() => undefined,
	);
	try {
		return (await Promise.race([work, deadline])) as Enrichment;
	} finally {
		stopTimer.abort();
	}
}

function timedOut(budgetMs: number): Enrichment {
	return {
		verificationError: {
			message: `${OPERATION} did not finish within ${Math.round(Math.max(0, budgetMs)) / 1000} s, so the ping is output without the result (fetch it later with the QES node)`,
			timedOut: true,
		},
	};
}

function describeFailure(error: unknown): IDataObject {
	const { message, description, httpCode } = error as { message?: unknown; description?: unknown; httpCode?: unknown };
	const code = error instanceof NodeApiError ? error.httpCode : httpCode;
	const numeric = code === null || code === undefined || code === '' ? undefined : Number(code);
	return {
		message: typeof message === 'string' && message ? message : `${OPERATION} failed`,
		...(numeric !== undefined && Number.isFinite(numeric) ? { httpCode: numeric } : {}),
		...(typeof description === 'string' && description ? { description } : {}),
	};
}

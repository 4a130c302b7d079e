import { type IDataObject, sleep } from 'n8n-workflow';

import { getPaymentStatus } from '../../VerificationServices/payments/operations/getPaymentStatus';
import { member, valueAt } from '../../shared/responses/envelope';
import { isObject, responseJson } from '../../shared/responses/json';
import { paymentOutcome } from '../../shared/responses/payment-outcome';
import { DEFAULT_REQUEST_SETTINGS } from '../../shared/transport/request-types';
import { type RequestContext, requestOnce } from '../../shared/transport/transport';

/**
 * Unsigned payment results (option Unsigned Payment Results = Confirm With the API). The provider's
 * documents do not say whether payment results are signed. A delivery without a Signature header
 * is taken only as a question: which payment, by its `referenceId`; everything it claims besides
 * is ignored. Get Payment Status (POST /payments/status with the API credential) gives the answer
 * the workflow starts with.
 */

/** The longest Get Payment Status may take, token included: the provider wants its answer within 10 s. */
export const CONFIRM_WITHIN_MS = 6_000;
const OPERATION = 'Get Payment Status';

export type Confirmation =
	/** The API's answer: what the workflow starts with. */
	| { item: IDataObject; referenceId: string; status: string }
	/** The API does not know the payment (a 4xx): answered like a forgery. */
	| { refused: string }
	/** The API could not answer now (time limit, 429, 5xx, network): the provider should resend. */
	| { retry: string };

/** The `referenceId` (or `reference_id`) a body names, at the top level or in a `data` envelope. */
export function claimedReference(body: unknown): string | undefined {
	if (!isObject(body)) return undefined;
	for (const layer of isObject(body.data) ? [body, body.data] : [body]) {
		const value = member(layer, 'referenceId');
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/** Asks the API for the payment's status; never throws. */
export async function confirmPayment(
	ctx: RequestContext,
	referenceId: string,
	budgetMs = CONFIRM_WITHIN_MS,
): Promise<Confirmation> {
	const deadline = new AbortController();
	const settings = { ...DEFAULT_REQUEST_SETTINGS, maxRetries: 0, timeoutSeconds: budgetMs / 1000 };
	const work = (async (): Promise<Confirmation> => {
		const response = await requestOnce(
			ctx,
			{ method: getPaymentStatus.method, path: getPaymentStatus.path, body: { referenceId } },
			{ operation: OPERATION, repeatable: true },
			settings,
			deadline.signal,
		);
		const json = responseJson(response.body);
		const status = valueAt(json, 'status');
		if (typeof status !== 'string' || status.trim() === '')
			return { retry: `${OPERATION} named no payment status` };
		const reason = valueAt(json, 'statusReasonInformation');
		const item: IDataObject = {
			referenceId,
			status,
			...(reason !== undefined
				? { statusReasonInformation: reason as IDataObject[keyof IDataObject] }
				: {}),
			resultType: 'paymentResult',
			paymentOutcome: paymentOutcome(status),
			signed: false,
			payment: json,
		};
		return { item, referenceId, status };
	})().catch((error: unknown): Confirmation => {
		if (deadline.signal.aborted) return { retry: `${OPERATION} did not finish in time` };
		const code = Number((error as { httpCode?: unknown }).httpCode);
		if (Number.isFinite(code) && code >= 400 && code < 500 && code !== 408 && code !== 429)
			return { refused: `${OPERATION} answered ${code}` };
		return { retry: `${OPERATION} failed${Number.isFinite(code) ? ` with HTTP ${code}` : ''}` };
	});

	const stopTimer = new AbortController();
	const late = sleep(budgetMs, stopTimer.signal).then(
		(): Confirmation => ({ retry: `${OPERATION} did not finish in time` }),
		(): Confirmation => ({ retry: `${OPERATION} did not finish in time` }),
	);
	const first = await Promise.race([work, late]);
	stopTimer.abort();
	if ('retry' in first && !deadline.signal.aborted) deadline.abort();
	return first;
}

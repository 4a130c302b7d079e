import type { IDataObject } from 'n8n-workflow';

import { member } from '../../shared/responses/envelope';
import { isObject } from '../../shared/responses/json';
import { isPaymentStatus } from '../../shared/responses/payment-outcome';

/**
 * What a delivery is. The provider sends hosted identity journey results and payment results to
 * the URLs agreed with it, with no field that names the kind, so the body's fields decide (read at
 * the top level, then inside a `data` envelope, each by its camelCase name or its snake_case twin,
 * as the API's generations spell them):
 *  1. journeyResult: a `success` verdict (PASS, DECLINE, REVIEW, FLAG, any case), or a
 *     `journeySummary` or `generalTransactionData` object: fields only journey results carry;
 *  2. paymentResult: a `status` from the documented payment list, with a `statusReasonInformation`,
 *     `referenceId` or `requestId`, or a status the journey does not use (all but PROCESSING);
 *  3. journeyResult: a `transactionId` with one of the journey's technical statuses (complete,
 *     processing, aborted, closed, error);
 *  4. paymentResult: any other `status` string with the payment's `referenceId`, `requestId` or
 *     `statusReasonInformation`: a status the provider added (REFUNDED, FAILURE_ACCOUNT_CLOSED, ...)
 *     is still a payment result, never dropped by Events = Payment Results;
 *  5. unrecognised: anything else (it passes every Events filter, as it cannot be told apart).
 * A `text/plain` body (an encrypted payload) cannot be read, so it is `encrypted`; a body that is
 * neither text/plain nor JSON is `unrecognised`.
 */
export type ResultType = 'journeyResult' | 'paymentResult' | 'unrecognised' | 'encrypted';

const VERDICTS = ['PASS', 'DECLINE', 'REVIEW', 'FLAG'];
const JOURNEY_STATUSES = ['complete', 'processing', 'aborted', 'closed', 'error'];

/** The body, then its `data` envelope when there is one. */
function layers(body: unknown): IDataObject[] {
	if (!isObject(body)) return [];
	return isObject(body.data) ? [body, body.data] : [body];
}

/** The first string (non-blank) or finite number under `name`, trimmed, in the body's layers. */
function textField(found: IDataObject[], name: string): string | undefined {
	for (const layer of found) {
		const value = member(layer, name);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}

const has = (found: IDataObject[], name: string, check: (value: unknown) => boolean) =>
	found.some((layer) => check(member(layer, name)));

/** The journey's verdict: `success`, else `generalTransactionData.success`. */
export function journeyVerdict(body: unknown): string | undefined {
	const found = layers(body);
	const direct = textField(found, 'success');
	if (direct !== undefined) return direct;
	return textField(
		found.map((layer) => member(layer, 'generalTransactionData')).filter(isObject),
		'success',
	);
}

export function resultTypeOf(body: unknown): Exclude<ResultType, 'encrypted'> {
	const found = layers(body);
	if (found.length === 0) return 'unrecognised';
	const verdict = journeyVerdict(body);
	if (
		(verdict !== undefined && VERDICTS.includes(verdict.toUpperCase())) ||
		has(found, 'journeySummary', isObject) ||
		has(found, 'generalTransactionData', isObject)
	) {
		return 'journeyResult';
	}
	const status = resultStatus(body);
	if (status === undefined) return 'unrecognised';
	const journeyStatus = JOURNEY_STATUSES.includes(status.toLowerCase());
	const paymentNamed = ['statusReasonInformation', 'referenceId', 'requestId'].some((name) =>
		has(found, name, (value) => value !== undefined && value !== null),
	);
	if (isPaymentStatus(status) && (paymentNamed || !journeyStatus)) return 'paymentResult';
	if (textField(found, 'transactionId') !== undefined && journeyStatus) return 'journeyResult';
	if (paymentNamed) return 'paymentResult';
	return 'unrecognised';
}

/**
 * What a resend of the same result repeats: its kind, the id it is about (transactionId, else
 * referenceId, else requestId), its status and its verdict. Undefined without an id and a status.
 */
export function resultIdentity(body: unknown, type: ResultType): string[] | undefined {
	const found = layers(body);
	const id =
		textField(found, 'transactionId') ??
		textField(found, 'referenceId') ??
		textField(found, 'requestId');
	const status = resultStatus(body);
	if (id === undefined || status === undefined) return undefined;
	return [type, id, status.toLowerCase(), (journeyVerdict(body) ?? '').toUpperCase()];
}

/** The status a body names (`status`, else `data.status`; the envelope's boolean `status` is skipped). */
export function resultStatus(body: unknown): string | undefined {
	return textField(layers(body), 'status');
}

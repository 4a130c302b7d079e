/**
 * The payment statuses the API names (POST /payments/status, and the payment results the provider
 * delivers by webhook) and what each means for a workflow: the money arrived, it will not arrive, or
 * not yet known. One mapping for every place that reads a payment status (the Verification Webhook
 * Trigger's payment results, the Payments node's status operation).
 */
export type PaymentOutcome = 'succeeded' | 'failed' | 'pending';

const SUCCEEDED = ['SUCCESS', 'COMPLETED', 'SETTLEMENT_COMPLETED'] as const;
const FAILED = [
	'FAILED',
	'FAILURE_GENERIC',
	'FAILURE_PERMISSION_DENIED',
	'FAILURE_CANCELED',
	'FAILURE_EXPIRED',
	'FAILURE_INSUFFICIENT_FUNDS',
	'FAILURE_DECLINED',
	'SETTLEMENT_INCOMPLETE',
] as const;
const PENDING = [
	'PROCESSING',
	'INITIATED',
	'PENDING',
	'PENDING_EXTERNAL_AUTHORIZATION',
	'SETTLEMENT_IN_PROGRESS',
] as const;

/** Every status the API documents, upper case. */
export const PAYMENT_STATUSES: readonly string[] = [...SUCCEEDED, ...FAILED, ...PENDING];

const OUTCOMES = new Map<string, PaymentOutcome>([
	...SUCCEEDED.map((status) => [status, 'succeeded'] as const),
	...FAILED.map((status) => [status, 'failed'] as const),
	...PENDING.map((status) => [status, 'pending'] as const),
]);

/** Whether a value is one of the documented payment statuses (any case, surrounding spaces ignored). */
export function isPaymentStatus(status: unknown): status is string {
	return typeof status === 'string' && OUTCOMES.has(status.trim().toUpperCase());
}

/**
 * succeeded: SUCCESS, COMPLETED, SETTLEMENT_COMPLETED; failed: FAILED, every FAILURE_*,
 * SETTLEMENT_INCOMPLETE; pending: everything else, an unknown or missing status included (a payment
 * is never reported as settled or lost on a status the API does not document).
 */
export function paymentOutcome(status: unknown): PaymentOutcome {
	if (typeof status !== 'string') return 'pending';
	const upper = status.trim().toUpperCase();
	return OUTCOMES.get(upper) ?? (upper.startsWith('FAILURE_') ? 'failed' : 'pending');
}

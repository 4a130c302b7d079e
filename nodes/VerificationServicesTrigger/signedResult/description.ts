import type { INodeProperties } from 'n8n-workflow';

export type EventFilter = 'all' | 'journeyResult' | 'paymentResult';

/** The provider resends a result for about 24 hours: 25 hours cover every resend. */
export const DEFAULT_DEDUP_MINUTES = 1500;
const MAX_DEDUP_MINUTES = 10_080;

/** The parameters of source Signed Result (the trigger shows them only for it). */
export const signedResultProperties: INodeProperties[] = [
	{
		displayName:
			"Give the provider this node's Production URL (Webhook URLs, above) as the webhook for hosted journey and payment results, and agree on a webhook secret: enter the same secret in this node's credential. Then activate the workflow. Every delivery must carry the header Signature (HMAC-SHA256 of the body with that secret); any other request is answered 401 and starts nothing.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'options',
		options: [
			{
				name: 'All Results',
				value: 'all',
				description: 'Journey results, payment results and any other signed delivery',
			},
			{
				name: 'Journey Results',
				value: 'journeyResult',
				description:
					'Results of the hosted identity journey (output field success: PASS, DECLINE, REVIEW or FLAG)',
			},
			{
				name: 'Payment Results',
				value: 'paymentResult',
				description:
					'Results of bank payments (output field paymentOutcome: succeeded, failed or pending)',
			},
		],
		default: 'all',
		description:
			'Which deliveries start the workflow; the others are answered 200 and start nothing. Encrypted (text/plain) and unrecognised deliveries cannot be told apart and always start it; a payment result with a status the API does not document is still a payment result.',
	},
	{
		displayName: 'Ignore Duplicates Within (Minutes)',
		name: 'dedupMinutes',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_DEDUP_MINUTES },
		default: DEFAULT_DEDUP_MINUTES,
		description:
			"A delivery that repeats one taken this many minutes before (the same transaction, status and verdict, or the same body) is answered 200 but starts nothing: the provider resends results for about 24 hours. Also holds for copies arriving at the same moment; kept in this n8n process's memory (a restart forgets it; each queue-mode webhook process has its own). Not applied to test events. 0 turns this off. A body whose own timestamp is older than 25 hours (or this, when longer) is refused with 400.",
	},
	{
		displayName: 'Unsigned Payment Results',
		name: 'unsignedPayments',
		type: 'options',
		options: [
			{
				name: 'Refuse',
				value: 'refuse',
				description: 'A delivery without a Signature header is answered 401 and starts nothing',
			},
			{
				name: 'Confirm With the API',
				value: 'confirm',
				description:
					'A payment result without a Signature header starts the workflow with what Get Payment Status answers for its referenceId (API credential below), never with what the delivery claims',
			},
		],
		default: 'refuse',
		description:
			'Whether a payment result that carries no Signature header can start the workflow. A delivery with a wrong signature is always refused.',
	},
];

export interface TriggerOptions {
	events: EventFilter;
	dedupMinutes: number;
	/** Unsigned Payment Results = Confirm With the API. */
	confirmUnsigned: boolean;
}

export function readTriggerOptions(
	events: unknown,
	dedupMinutes: unknown,
	unsignedPayments?: unknown,
): TriggerOptions {
	const minutes = Number(dedupMinutes ?? DEFAULT_DEDUP_MINUTES);
	return {
		events: events === 'journeyResult' || events === 'paymentResult' ? events : 'all',
		dedupMinutes:
			Number.isFinite(minutes) && minutes > 0 ? Math.min(minutes, MAX_DEDUP_MINUTES) : 0,
		confirmUnsigned: unsignedPayments === 'confirm',
	};
}

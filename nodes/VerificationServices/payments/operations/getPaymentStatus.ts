import { type JsonObject, NodeApiError } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { paymentOutcome } from '../../../shared/responses/payment-outcome';
import { text } from '../../../shared/fields/rules';

export const getPaymentStatus: OperationDefinition = {
	value: 'getPaymentStatus',
	name: 'Get Payment Status',
	action: 'Get the status of a bank payment',
	description:
		'Read the current status of a payment started with Initiate Payment, with paymentOutcome to branch on: succeeded, failed or pending',
	method: 'POST',
	path: '/payments/status',
	repeatable: true,
	toolDescription:
		"Read the status of a bank payment by the referenceId given to Initiate Payment. Returns paymentOutcome (succeeded, failed or pending), paymentStatus (the provider's status, e.g. SUCCESS, PENDING, FAILURE_DECLINED) and statusReasonInformation. Read-only.",
	// A status of the payment, inside the `data` envelope or not; toItems checks that it is text.
	expects: { oneOf: ['status'] },
	hints: {
		notFound:
			'No payment with referenceId "{referenceId}": pass the referenceId you gave Initiate Payment, with the same credential and environment.',
	},
	fields: [
		{
			property: {
				displayName: 'Reference ID',
				name: 'referenceId',
				type: 'string',
				default: '={{ $json.referenceId }}',
				required: true,
				placeholder: 'order-4711',
				description:
					"The referenceId you gave Initiate Payment. The default reads it from the incoming item (Initiate Payment's output, or a payment result of the IDCanopy Umbrella Trigger).",
			},
			rule: text({ normalize: (value) => value.trim() }),
		},
	],
	toItems: (response, { ctx, itemIndex }) => {
		const json = responseJson(response.body);
		const status = valueAt(json, 'status');
		// The envelope's `status: true` is not a payment status: a status is never invented.
		if (typeof status !== 'string' || status.trim() === '') {
			throw new NodeApiError(ctx.getNode(), json as JsonObject, {
				message: `Get Payment Status: the answer carries no payment status (got ${JSON.stringify(status ?? null)})`,
				description:
					'The provider answered without the status of the payment, so no outcome is reported. Try again later.',
				itemIndex,
			});
		}
		return [{ json: { ...json, paymentStatus: status, paymentOutcome: paymentOutcome(status) } }];
	},
};

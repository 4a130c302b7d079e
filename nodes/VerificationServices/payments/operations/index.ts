import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { challengeDeposit } from './challengeDeposit';
import { getPaymentStatus } from './getPaymentStatus';
import { initiatePayment } from './initiatePayment';

export const paymentsResource: ResourceDefinition = {
	value: 'payments',
	name: 'Payments',
	description:
		'Verify the holder of a bank account with a small challenge deposit, and take payments by bank with their status',
	operations: [challengeDeposit, initiatePayment, getPaymentStatus],
	properties: [
		{
			displayName:
				'This operation moves money and is never sent twice. Set Settings > On Error to "Continue (using error output)": the payments the API accepted then reach the success output and only the failed ones the error output. Otherwise one failure stops the node, and its error lists the payments already made (with their transactionId or requestId) so that a re-run does not pay them again.',
			name: 'moneyNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { operation: ['challengeDeposit', 'initiatePayment'] } },
		},
	],
};

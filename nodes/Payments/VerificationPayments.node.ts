import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { currencyOptions } from './currencies';
import { paymentsOperations } from './operations';

export class VerificationPayments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Account Check',
		name: 'verificationPayments',
		icon: { light: 'file:../../icons/payments.svg', dark: 'file:../../icons/payments.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for Challenge Deposit (version 1, as saved workflows hold it, keeps the whole answer);
		// as an AI tool, Challenge Deposit and Initiate Payment wait for a person's approval (version 1 runs them as saved).
		version: [1, 2],
		subtitle: operationSubtitle(paymentsOperations),
		description:
			'Verify the holder of a bank account with a small challenge deposit, and take payments by bank with their status',
		defaults: { name: 'Payment Account Check' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: [
			{
				displayName:
					'This operation moves money and is never sent twice. Set Settings > On Error to "Continue (using error output)": the payments the API accepted then reach the success output and only the failed ones the error output. Otherwise one failure stops the node, and its error lists the payments already made (with their transactionId or requestId) so that a re-run does not pay them again.',
				name: 'moneyNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { operation: ['challengeDeposit', 'initiatePayment'] } },
			},
			...operationProperties(paymentsOperations),
		],
	};

	methods = {
		loadOptions: {
			/** A static list of common currencies (the API has no currency list); others by expression. */
			async getCurrencies(): Promise<INodePropertyOptions[]> {
				return currencyOptions();
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, paymentsOperations);
	}
}

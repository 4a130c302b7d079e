import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { nodeProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { getCountries } from './kyb/country-options';
import { currencyOptions } from './payments/currencies';
import { resources } from './resources';

/**
 * Every operation of the IDCanopy Umbrella API, one resource per API group (resources.ts); each
 * operation is one file under `<resource>/operations/`.
 */
export class VerificationServices implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'IDCanopy Umbrella',
		name: 'verificationServices',
		icon: {
			light: 'file:../../icons/verification.svg',
			dark: 'file:../../icons/verification.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(resources),
		description:
			'Screen people (AML, sanctions, PEP), look companies up (KYB), check bank accounts and take payments, verify documents, phones (OTP), addresses and identities, and onboard signers (QES)',
		defaults: { name: 'IDCanopy Umbrella' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: nodeProperties(resources),
	};

	methods = {
		loadOptions: {
			getCountries,
			/** A static list of common currencies (the API has no currency list); others by expression. */
			async getCurrencies(): Promise<INodePropertyOptions[]> {
				return currencyOptions();
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, resources);
	}
}

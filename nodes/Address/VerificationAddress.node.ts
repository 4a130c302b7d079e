import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { addressOperations } from './operations';

export class VerificationAddress implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Address Verification',
		name: 'verificationAddress',
		icon: { light: 'file:../../icons/address.svg', dark: 'file:../../icons/address.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for Verify Address (version 1, as saved workflows hold it, keeps the whole answer).
		version: [1, 2],
		subtitle: operationSubtitle(addressOperations),
		description:
			'Check that a person lives at an address, with the match quality and the corrected address',
		defaults: { name: 'Address Verification' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(addressOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, addressOperations);
	}
}

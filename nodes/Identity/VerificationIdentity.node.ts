import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { identityOperations } from './operations';

export class VerificationIdentity implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Identity Verification',
		name: 'verificationIdentity',
		icon: { light: 'file:../../icons/identity.svg', dark: 'file:../../icons/identity.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(identityOperations),
		description:
			"Check a person's name, date of birth and address against official and commercial data sources",
		defaults: { name: 'Identity Verification' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(identityOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, identityOperations);
	}
}

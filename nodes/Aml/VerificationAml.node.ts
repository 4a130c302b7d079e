import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { amlOperations } from './operations';

export class VerificationAml implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AML Screening',
		name: 'verificationAml',
		icon: { light: 'file:../../icons/aml.svg', dark: 'file:../../icons/aml.dark.svg' },
		group: ['transform'],
		// 2: as an AI tool, Register Individual and Remove Search Profile wait for a person's approval (version 1 runs them as saved).
		version: [1, 2],
		subtitle: operationSubtitle(amlOperations),
		description:
			'Screen people against sanction, PEP and criminal lists, and manage ongoing monitoring',
		defaults: { name: 'AML Screening' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(amlOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, amlOperations);
	}
}

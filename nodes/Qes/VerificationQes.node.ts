import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { qesOperations } from './operations';

export class VerificationQes implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'QES Onboarding',
		name: 'verificationQes',
		icon: { light: 'file:../../icons/qes.svg', dark: 'file:../../icons/qes.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for Get Verification Result (version 1, as saved workflows hold it, keeps the whole answer);
		// as an AI tool, Configure Webhook and Create Session Link wait for a person's approval (version 1 runs them as saved).
		version: [1, 2],
		subtitle: operationSubtitle(qesOperations),
		description:
			'Start qualified electronic signature (QES) onboarding sessions, read their result, download the signed documents and configure the status webhook',
		defaults: { name: 'QES Onboarding' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(qesOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, qesOperations);
	}
}

import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { documentOperations } from './operations';

export class VerificationDocument implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Verification',
		name: 'verificationDocument',
		icon: { light: 'file:../../icons/document.svg', dark: 'file:../../icons/document.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for Verify Document (version 1, as saved workflows hold it, keeps the whole answer);
		// as an AI tool, Start Hosted Journey waits for a person's approval (version 1 runs it as saved).
		version: [1, 2],
		subtitle: operationSubtitle(documentOperations),
		description:
			"Open verification journeys, add ID document images, check age and disability and verify the document, or start the provider's hosted identity journey. The API marks the step-by-step journey (Open Journey to Verify Document) as upcoming: it may not be enabled for your account yet.",
		defaults: { name: 'Document Verification' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(documentOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, documentOperations);
	}
}

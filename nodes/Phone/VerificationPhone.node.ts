import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { phoneOperations } from './operations';

export class VerificationPhone implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Phone Verification',
		name: 'verificationPhone',
		icon: { light: 'file:../../icons/phone.svg', dark: 'file:../../icons/phone.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for the lookups (version 1, as saved workflows hold it, keeps the whole answer).
		// 3: as an AI tool, Send OTP waits for a person's approval (versions 1 and 2 run it as saved).
		version: [1, 2, 3],
		subtitle: operationSubtitle(phoneOperations),
		description:
			'Send one-time passwords by SMS or e-mail and check the code the person typed, and look phone numbers up: live status, identity data with add-ons and fraud risk',
		defaults: { name: 'Phone Verification' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(phoneOperations),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, phoneOperations);
	}
}

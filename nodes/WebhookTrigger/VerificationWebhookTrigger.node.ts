import {
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	NodeConnectionTypes,
	NodeOperationError,
} from 'n8n-workflow';

import { triggerProperties } from './description';
import { CREDENTIAL_TYPE, receiveDelivery } from './receive';
import { checkSigningSecret } from './secret-check';
import { deliveryWebhooks } from '../shared/delivery/delivery-webhook';

/**
 * Starts a workflow for every signed result the provider delivers: hosted identity journey results
 * and bank payment results. There is no registration API: the user gives the provider the node's
 * production URL and agrees on a webhook secret, which goes into the credential.
 *
 * Every delivery must carry header `Signature` = hex HMAC-SHA256 of the raw body with that secret
 * (receive.ts lists the checks in order). A started delivery is answered 200 by n8n once the
 * execution exists (n8n 2.x; 1.x answers as it starts it), before the workflow runs; copies of one
 * result (the provider resends for about 24 hours) start it once, also when they arrive together
 * (nodes/shared/delivery/delivery-memory.ts: in this n8n process's memory).
 *
 * Output: one item per accepted delivery = the body's fields as they arrived (an encrypted
 * text/plain body as the string `body`), plus `resultType` (journeyResult, paymentResult,
 * unrecognised, encrypted), `success` for journey results and `paymentOutcome` (succeeded, failed,
 * pending) for payment results.
 */
export class VerificationWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Verification Webhook Trigger',
		name: 'verificationWebhookTrigger',
		icon: { light: 'file:../../icons/webhook.svg', dark: 'file:../../icons/webhook.dark.svg' },
		group: ['trigger'],
		// Version 2 differs only in who reads the body (description.ts, Body Handling); what the node
		// answers and outputs is the same in both.
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{ {"all": "All results", "journeyResult": "Journey results", "paymentResult": "Payment results"}[$parameter["events"]] }}',
		description:
			'Starts the workflow when the provider delivers a signed hosted journey or payment result',
		defaults: { name: 'Verification Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'verificationServicesWebhookApi', required: true, testedBy: 'signingSecret' },
			// Only to confirm unsigned payment results with Get Payment Status.
			{
				name: 'verificationServicesApi',
				required: true,
				displayOptions: { show: { unsignedPayments: ['confirm'] } },
			},
		],
		webhooks: deliveryWebhooks,
		eventTriggerDescription: 'Waiting for a signed result from the provider',
		activationMessage:
			"Signed results the provider sends to this workflow's production URL now start it.",
		properties: triggerProperties,
	};

	methods = {
		credentialTest: {
			async signingSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkSigningSecret(credential.data?.signingSecret);
			},
		},
	};

	// The URL is agreed with the provider by hand, so nothing is registered anywhere: activation
	// (create, run on every activation as checkExists says there is nothing yet) only refuses a
	// credential whose secret could never match, and deactivation has nothing to remove.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const credentials = await this.getCredentials<{ signingSecret?: unknown }>(CREDENTIAL_TYPE);
				const check = checkSigningSecret(credentials.signingSecret);
				if (check.status !== 'OK') throw new NodeOperationError(this.getNode(), check.message);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}

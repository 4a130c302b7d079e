import {
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { triggerProperties } from './description';
import { receivePing } from './receive';
import { forgetRegistration, hasRegistration, register } from './webhook-lifecycle';
import { deliveryWebhooks } from '../shared/delivery/delivery-webhook';

/**
 * Starts a workflow for every QES onboarding status ping.
 *
 * Activation (and "Listen for test event") registers n8n's webhook URL with
 * POST /onboarding/configureWebhook and metadata.authHeader = { 'X-Verification-Webhook-Secret':
 * <random secret> } (header name: option Secret Header Name, parameter options.headerName). The provider replays that header with
 * every ping; webhook() answers 401 when it is missing or wrong. The registration (URL, id, header
 * name, SHA-256 of the secret; never the secret itself, as n8n copies static data into executions
 * and returns it with the workflow) and the de-duplication memory live in the node's static data, key
 * `node:<node name>`; the layout is documented in static-data.ts. Copies of a ping that arrive
 * together are told apart in this process's memory (shared/delivery/delivery-memory.ts); receive.ts says who answers.
 *
 * Output: one item per accepted ping = the ping's JSON body as it arrived, plus, when enabled,
 * `verification` (full getVerification response) or `verificationError` ({ message, httpCode?,
 * description?, timedOut? }), `headers` (without the secret header) and `receivedAt` (ISO 8601).
 */
export class VerificationQesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'QES Onboarding Trigger',
		name: 'verificationQesTrigger',
		icon: { light: 'file:../../icons/qes.svg', dark: 'file:../../icons/qes.dark.svg' },
		group: ['trigger'],
		// Version 2 is version 1 without n8n's per-request evaluation of $parameter.options.binaryData,
		// which n8n runs in its expression sandbox for every version-1 webhook node; n8n parses the ping
		// alike in both, so both behave the same.
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{ $parameter["options"]["onlyStatuses"] ? "Statuses: " + $parameter["options"]["onlyStatuses"] : "Every status ping" }}',
		description: 'Starts the workflow when a QES onboarding session sends a status ping',
		defaults: { name: 'QES Onboarding Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'verificationServicesApi', required: true }],
		webhooks: deliveryWebhooks,
		eventTriggerDescription: 'Waiting for a QES onboarding status ping',
		activationMessage:
			'QES status pings of this account now come to this workflow; the webhook set elsewhere for it was replaced.',
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await hasRegistration.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await forgetRegistration.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receivePing.call(this);
	}
}

import type { IWebhookDescription } from 'n8n-workflow';

/**
 * The webhook of both triggers. onReceived: n8n answers a started delivery itself, n8n 2.x only once
 * it has created the execution (500 when it could not), so a 2xx is never sent for an event n8n did
 * not take. responseData '': n8n then answers with webhook()'s webhookResponse (undefined would make
 * it answer the literal body "firstEntryJson").
 */
export const deliveryWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		responseData: '',
		path: 'webhook',
	},
];

import type {
	IHookFunctions,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

/**
 * One kind of event the trigger receives (parameter `source`): its parameters, what activation and
 * deactivation do at the provider, and how one request is answered.
 */
export interface TriggerSource {
	/** The parameter value stored in workflows: never changes once released. */
	value: string;
	name: string;
	/** What n8n's node panel lists as the trigger's event. */
	action: string;
	description: string;
	properties: INodeProperties[];
	checkExists: (this: IHookFunctions) => Promise<boolean>;
	create: (this: IHookFunctions) => Promise<boolean>;
	delete: (this: IHookFunctions) => Promise<boolean>;
	webhook: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;
}

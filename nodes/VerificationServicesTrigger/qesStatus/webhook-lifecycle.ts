import { randomBytes } from 'crypto';
import {
	type IDataObject,
	type IHookFunctions,
	type JsonObject,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { requestOnce } from '../../shared/transport/transport';
import { DEFAULT_SECRET_HEADER, isValidHeaderName, readTriggerOptions } from './description';
import { secretSha256 } from './ping-check';
import { withoutSecret } from '../../shared/transport/redact';
import { type Registration, storedRegistration, type TriggerStaticData } from './static-data';

const OPERATION = 'Configure Webhook';

/**
 * n8n's webhook lifecycle for an API that keeps one webhook URL per account and has neither a list
 * nor a delete endpoint: the registration lives in the node's static data (layout in static-data.ts).
 *
 * - checkExists: true only when static data holds a registration for the very URL n8n asks about
 *   (production and test URLs differ) with the header name currently configured. So activating
 *   twice, or n8n restarting, does not register again; a changed URL or header name does.
 * - create: POST /onboarding/configureWebhook { webhookUrl, metadata: { authHeader: { <header>: <secret> } } }
 *   with a new random secret, then stores the registration with only the secret's SHA-256: the
 *   secret itself lives in memory for this call and is never stored.
 * - delete: forgets the registration locally (nothing to call) and returns true.
 */
export async function hasRegistration(this: IHookFunctions): Promise<boolean> {
	const webhookUrl = this.getNodeWebhookUrl('default');
	const registration = storedRegistration(this.getWorkflowStaticData('node'));
	if (!registration || !webhookUrl) return false;
	const { secretHeader } = readTriggerOptions(this.getNodeParameter('options', {}) as IDataObject);
	return (
		registration.webhookUrl === webhookUrl &&
		registration.secretHeader.toLowerCase() === secretHeader.toLowerCase()
	);
}

export async function register(this: IHookFunctions): Promise<boolean> {
	const node = this.getNode();
	const webhookUrl = this.getNodeWebhookUrl('default');
	if (!webhookUrl)
		throw new NodeOperationError(node, 'n8n did not provide a webhook URL for this trigger');
	const { secretHeader } = readTriggerOptions(this.getNodeParameter('options', {}) as IDataObject);
	if (!isValidHeaderName(secretHeader)) {
		throw new NodeOperationError(
			node,
			`Secret Header Name must be a valid HTTP header name (letters, digits and -), got "${secretHeader.slice(0, 60)}"`,
			{
				description: `Use for example ${DEFAULT_SECRET_HEADER}.`,
			},
		);
	}
	const secret = randomBytes(32).toString('hex');
	await configureWebhook(this, webhookUrl, secretHeader, secret);
	const registration: Registration = {
		webhookUrl,
		secretHeader,
		secretSha256: secretSha256(secret),
	};
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	staticData.registration = registration;
	return true;
}

/**
 * POST /onboarding/configureWebhook with the secret in the header n8n will check; the secret is cut
 * out of every error.
 */
async function configureWebhook(
	context: IHookFunctions,
	webhookUrl: string,
	secretHeader: string,
	secret: string,
): Promise<void> {
	let body: unknown;
	try {
		const response = await requestOnce(
			context,
			{
				method: 'POST',
				path: '/onboarding/configureWebhook',
				body: { webhookUrl, metadata: { authHeader: { [secretHeader]: secret } } },
			},
			{
				operation: OPERATION,
				// Configuring the same URL again only replaces the configuration: safe to resend.
				repeatable: true,
				hints: {
					400: `The API refused n8n's webhook URL ${webhookUrl}. It must be an http(s) URL the provider can reach from the internet: set n8n's WEBHOOK_URL to its public address, then publish the workflow again (n8n 1.x: activate).`,
				},
			},
		);
		body = response.body;
	} catch (error) {
		throw withoutSecret(error, secret);
	}

	const answer = (body && typeof body === 'object' ? body : {}) as IDataObject;
	if (answer.status === false) {
		throw withoutSecret(
			new NodeApiError(context.getNode(), answer as JsonObject, {
				message: `${OPERATION} answered that the webhook was not saved (status false)`,
				description: `The API did not accept ${webhookUrl} as the account's webhook URL. Check that n8n's webhook URL is public (set WEBHOOK_URL), then publish the workflow again (n8n 1.x: activate).`,
			}),
			secret,
		);
	}
}

/** The API cannot delete a webhook: forgetting the registration is all there is to do. */
export async function forgetRegistration(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	delete staticData.registration;
	delete staticData.recentPings;
	return true;
}

import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The secret the provider signs its webhook deliveries with (hosted identity journey and payment
 * results): header `Signature` = HMAC-SHA256 of the raw body with this secret, hex. The secret is
 * agreed with the provider together with the URL; no API call uses it.
 */
export class VerificationServicesWebhookApi implements ICredentialType {
	name = 'verificationServicesWebhookApi';

	displayName = 'IDCanopy Umbrella Webhook API';

	icon: Icon = { light: 'file:../icons/webhook.svg', dark: 'file:../icons/webhook.dark.svg' };

	documentationUrl =
		'https://github.com/verification-services/n8n-nodes-verification-services/blob/main/docs/trigger.md#signed-journey-or-payment-result';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The webhook secret agreed with the provider for this URL. The provider signs every delivery with it (header Signature); deliveries without a valid signature are refused.',
		},
	];
}

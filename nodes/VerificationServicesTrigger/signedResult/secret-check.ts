import type { INodeCredentialTestResult } from 'n8n-workflow';

/**
 * What can be told about a signing secret without a delivery: that there is one, and that it does
 * not start or end with whitespace (a copy-paste slip; the provider signs with the exact secret, so
 * every delivery would be refused). Whether it is the provider's secret shows on the first delivery.
 * The secret itself is never part of the message.
 */
export function checkSigningSecret(secret: unknown): INodeCredentialTestResult {
	if (typeof secret !== 'string' || secret === '') {
		return {
			status: 'Error',
			message: 'Enter the webhook secret agreed with the provider as Signing Secret',
		};
	}
	if (secret.trim() !== secret) {
		return {
			status: 'Error',
			message:
				'The Signing Secret starts or ends with a space or line break; enter it again without them (the provider signs with the exact secret)',
		};
	}
	return {
		status: 'OK',
		message:
			"The Signing Secret is set. Whether it is the provider's shows on the first delivery: one signed with another secret is answered 401.",
	};
}

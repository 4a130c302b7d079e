import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'verificationServicesApi';

export const PRODUCTION_BASE_URL = 'https://api-umbrella.io/api/services';
export const SANDBOX_BASE_URL = 'https://sandbox-umbrella-api.azurewebsites.net/api/services';

export interface ApiCredentials {
	baseUrl: string;
	apiKey: string;
	customerId: string;
	accessToken: string;
}

/** The credential's fields as the request path needs them: the chosen environment's base URL, trimmed. */
export function readCredentials(data: ICredentialDataDecryptedObject): ApiCredentials {
	const sandbox = data.environment === 'sandbox';
	const url = String((sandbox ? data.sandboxBaseUrl : data.productionBaseUrl) ?? '') ||
		(sandbox ? SANDBOX_BASE_URL : PRODUCTION_BASE_URL);
	return {
		baseUrl: url.trim().replace(/\/+$/, ''),
		apiKey: String(data.apiKey ?? '').trim(),
		customerId: String(data.customerId ?? '').trim(),
		accessToken: String(data.accessToken ?? ''),
	};
}

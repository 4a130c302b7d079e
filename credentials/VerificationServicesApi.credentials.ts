import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	BaseUrlError,
	PRODUCTION_BASE_URL,
	readCredentials,
	SANDBOX_BASE_URL,
} from '../nodes/shared/transport/credential-values';
import { DEFAULT_REQUEST_SETTINGS } from '../nodes/shared/transport/request-settings';
import { exchangeToken, rejectedKeyMessage } from '../nodes/shared/transport/token-exchange';

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** n8n's declarative test cannot read the Location header, so this names the status only. */
function redirectMessage(status: number): string {
	return `The API answered /auth with a redirect (HTTP ${status}), which is not followed, so the key was not sent on: check the base URL of the credential's environment (an old address or a proxy may redirect)`;
}

/**
 * The credential of every node of the package. The nodes take their tokens from their own request
 * path (after the pacer admitted each request); the hooks below serve n8n's own requests with this
 * credential, such as the HTTP Request node's "Predefined Credential Type": n8n calls
 * preAuthentication when no token is stored or the API answered 401, stores the token with the
 * credential, and authenticate sends it.
 */
export class VerificationServicesApi implements ICredentialType {
	name = 'verificationServicesApi';

	displayName = 'Verification Services API';

	icon: Icon = {
		light: 'file:../icons/verification.svg',
		dark: 'file:../icons/verification.dark.svg',
	};

	documentationUrl =
		'https://github.com/verification-services/n8n-nodes-verification-services#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Sandbox', value: 'sandbox' },
			],
			default: 'production',
			description: 'Sandbox answers with test data and moves no money',
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: PRODUCTION_BASE_URL,
			description: 'Change only to go through a proxy',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Sandbox Base URL',
			name: 'sandboxBaseUrl',
			type: 'string',
			default: SANDBOX_BASE_URL,
			description: 'Change to use a proxy or a local sandbox emulator',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key from your account settings (a UUID)',
		},
		// The vendor treats the customer ID as a secret (the token's claims carry it), so it stays masked.
		// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password
		{
			displayName: 'Customer ID',
			name: 'customerId',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The customer ID that belongs to the API key (a UUID)',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/** Exchanges the key for a token; n8n calls it when the stored token is empty or was refused. */
	async preAuthentication(this: IHttpRequestHelper, data: ICredentialDataDecryptedObject) {
		const { token } = await exchangeToken(this.helpers.httpRequest, readCredentials(data));
		return { accessToken: token };
	}

	/**
	 * Adds the token to n8n's own requests (the credential test, the HTTP Request node), after the
	 * same base URL check as the nodes' (n8n skips preAuthentication while a token is stored), and only
	 * for a request to the base URL's origin: the token goes nowhere else.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { baseUrl, accessToken } = readCredentials(credentials);
		const target = requestOptions.url ?? (requestOptions as { uri?: string }).uri;
		if (target) {
			const origin = originOf(target, requestOptions.baseURL);
			if (origin !== new URL(baseUrl).origin) {
				throw new BaseUrlError(
					`This credential sends its token only to its base URL's origin (${new URL(baseUrl).origin}), not to ${origin ?? 'an unreadable URL'}: use the credential's base URL in the request`,
				);
			}
		}
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${accessToken}` },
		};
	}

	/**
	 * The test exchanges the key it is shown, every time. n8n only runs preAuthentication during a test
	 * when no token is stored (its tester marks the probe node `noOp`, not `n8n-nodes-base.noOp`, so its
	 * "always re-authenticate when testing" branch never fires): a protected GET would go out with the
	 * stored token and pass with any key. POST /auth with the key headers cannot. It follows no
	 * redirect (n8n's helper would send the key headers on to wherever it points) and reports one.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ String($credentials.environment === "sandbox" ? $credentials.sandboxBaseUrl : $credentials.productionBaseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/auth',
			method: 'POST',
			disableFollowRedirect: true,
			timeout: DEFAULT_REQUEST_SETTINGS.timeoutSeconds * 1000,
			headers: {
				'Api-Key': '={{ String($credentials.apiKey ?? "").trim() }}',
				'Customer-Id': '={{ String($credentials.customerId ?? "").trim() }}',
				'Content-Type': 'application/x-www-form-urlencoded',
			},
		},
		rules: [
			...[401, 403].map((code) => ({
				type: 'responseCode' as const,
				properties: { value: code, message: rejectedKeyMessage(code) },
			})),
			...REDIRECT_STATUSES.map((code) => ({
				type: 'responseCode' as const,
				properties: { value: code, message: redirectMessage(code) },
			})),
		],
	};
}

/** The origin a request goes to (its URL, resolved against baseURL when relative); undefined when unreadable. */
function originOf(url: string, baseURL: string | undefined): string | undefined {
	try {
		const base = baseURL ? `${baseURL.trim().replace(/\/+$/, '')}/` : undefined;
		return new URL(url.replace(/^\//, ''), base).origin;
	} catch {
		return undefined;
	}
}

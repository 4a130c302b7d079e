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
import { DEFAULT_REQUEST_SETTINGS } from '../nodes/shared/transport/request-types';
import { heldToken, tokenFor } from '../nodes/shared/transport/token-cache';
import { rejectedKeyMessage } from '../nodes/shared/transport/token-exchange';

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** n8n's declarative test cannot read the Location header, so this names the status only. */
function redirectMessage(status: number): string {
	return `The API answered /auth with a redirect (HTTP ${status}), which is not followed, so the key was not sent on: check the base URL of the credential's environment (an old address or a proxy may redirect)`;
}

/**
 * The credential of every node of the package. The nodes take their tokens from their own request
 * path (after the pacer admitted each request); the hooks below serve n8n's own requests with this
 * credential, such as the HTTP Request node's "Predefined Credential Type".
 *
 * n8n resolves a credential's expressions with each item, but keeps one stored token per credential,
 * whatever account the item resolves to. So no token is ever stored: preAuthentication takes the
 * item's account's token from the process-wide cache the nodes use (one exchange per account per
 * token lifetime) and authenticate sends only the token that cache holds for the item's account.
 * (n8n 1.x would also store the item's resolved key in place of the credential's expressions.)
 */
export class VerificationServicesApi implements ICredentialType {
	name = 'verificationServicesApi';

	displayName = 'IDCanopy Umbrella API';

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

	/**
	 * n8n calls it when no token is stored (always: none is) or after a request failed. The item's
	 * account's token is taken from the process-wide cache, where authenticate finds it; nothing is
	 * returned for n8n to store. The token is also noted on the object n8n passes, so that a call for
	 * that object after its request failed renews the token it failed with.
	 */
	async preAuthentication(this: IHttpRequestHelper, data: ICredentialDataDecryptedObject) {
		const rejected =
			typeof data.accessToken === 'string' && data.accessToken ? data.accessToken : undefined;
		data.accessToken = await tokenFor(this.helpers.httpRequest, readCredentials(data), {
			rejected,
			timeoutMs: DEFAULT_REQUEST_SETTINGS.timeoutSeconds * 1000,
			maxRetries: DEFAULT_REQUEST_SETTINGS.maxRetries,
		});
		return {};
	}

	/**
	 * Adds the token to n8n's own requests (the credential test, the HTTP Request node), after the
	 * same base URL check as the nodes', only for a request to the base URL's origin (the token goes
	 * nowhere else), and only the token the cache holds for this item's account. The token exchange
	 * itself (the credential test's POST /auth) carries the key and no token.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const account = readCredentials(credentials);
		const base = new URL(account.baseUrl);
		const target = targetOf(requestOptions);
		if (target !== undefined && target?.origin !== base.origin) {
			throw new BaseUrlError(
				`This credential sends its token only to its base URL's origin (${base.origin}), not to ${target?.origin ?? 'an unreadable URL'}: use the credential's base URL in the request`,
			);
		}
		if (target?.pathname === `${base.pathname.replace(/\/+$/, '')}/auth`) return requestOptions;
		const token = heldToken(account);
		if (token === undefined) throw new Error(NO_TOKEN_MESSAGE);
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
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

/** What authenticate says when n8n sent no item's account through preAuthentication first. */
const NO_TOKEN_MESSAGE =
	"This n8n process holds no token for this item's account yet, so the request was not sent (n8n asked for none before it): run it again, or use the IDCanopy Umbrella node, which exchanges the key of each item's account itself";

/**
 * The URL a request goes to (resolved against baseURL when relative); undefined when it names none,
 * null when it cannot be read.
 */
function targetOf(requestOptions: IHttpRequestOptions): URL | null | undefined {
	const url = requestOptions.url ?? (requestOptions as { uri?: string }).uri;
	if (!url) return undefined;
	try {
		const { baseURL } = requestOptions;
		const base = baseURL ? `${baseURL.trim().replace(/\/+$/, '')}/` : undefined;
		return new URL(url.replace(/^\//, ''), base);
	} catch {
		return null;
	}
}

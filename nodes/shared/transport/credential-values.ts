import { createHash } from 'crypto';
import { type ICredentialDataDecryptedObject, type INode, NodeOperationError } from 'n8n-workflow';

export const API_CREDENTIAL_TYPE = 'verificationServicesApi';

export const PRODUCTION_BASE_URL = 'https://api-umbrella.io/api/services';
export const SANDBOX_BASE_URL = 'https://sandbox-umbrella-api.azurewebsites.net/api/services';

export interface ApiCredentials {
	/** Which of the credential's environments the requests go to. */
	environment: 'sandbox' | 'production';
	/** Checked (checkBaseUrl): origin and path only, so it may be printed in any error. */
	baseUrl: string;
	apiKey: string;
	customerId: string;
	accessToken: string;
}

/** A base URL that breaks a rule of checkBaseUrl; its message never holds a user name, password or query. */
export class BaseUrlError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BaseUrlError';
	}
}

/** What to do about a refused base URL, for every error that reports one. */
export const BASE_URL_HINT =
	"Correct the base URL of the credential's environment: https://host/path, or http:// only for an API on this computer (localhost, 127.x.x.x, [::1]).";

/** Hosts that never leave this computer: plain http to them sends nothing over a network. */
function isLoopback(hostname: string): boolean {
	return (
		hostname === 'localhost' ||
		hostname === '[::1]' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
	);
}

/**
 * The base URL the requests go to, as `origin + path` (no trailing slash), or a BaseUrlError naming
 * the rule it breaks. The API key, the customer ID and the token go to this URL, so: https, or http
 * only to a loopback host (elsewhere they would cross the network in clear text); no user name or
 * password (they would reach error messages and logs); no query or fragment (the paths are appended).
 */
export function checkBaseUrl(raw: string, field = 'Base URL'): string {
	if (!URL.canParse(raw.trim()))
		throw new BaseUrlError(
			`The credential's ${field} is not a URL: it must look like https://host/path`,
		);
	const url = new URL(raw.trim());
	const printable = `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new BaseUrlError(
			`The credential's ${field} must start with https:// (it starts with ${url.protocol})`,
		);
	}
	if (url.username !== '' || url.password !== '') {
		throw new BaseUrlError(
			`The credential's ${field} must not contain a user name or password (user:password@), got ${printable} with them: remove them (a proxy that needs a login is set in n8n's proxy settings)`,
		);
	}
	if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
		throw new BaseUrlError(
			`The credential's ${field} must use https:// for ${url.host}: http:// would send the API key and the token unencrypted. http:// is accepted only for localhost, 127.x.x.x and [::1]`,
		);
	}
	if (url.search !== '' || url.hash !== '') {
		throw new BaseUrlError(
			`The credential's ${field} must not have a query (?...) or fragment (#...), got ${printable} with one`,
		);
	}
	return printable;
}

/**
 * The credential's fields as the request path needs them: the chosen environment's base URL,
 * checked (checkBaseUrl, a BaseUrlError when it breaks a rule).
 */
export function readCredentials(data: ICredentialDataDecryptedObject): ApiCredentials {
	const sandbox = data.environment === 'sandbox';
	const url =
		String((sandbox ? data.sandboxBaseUrl : data.productionBaseUrl) ?? '').trim() ||
		(sandbox ? SANDBOX_BASE_URL : PRODUCTION_BASE_URL);
	return {
		environment: sandbox ? 'sandbox' : 'production',
		baseUrl: checkBaseUrl(url, sandbox ? 'Sandbox Base URL' : 'Production Base URL'),
		apiKey: String(data.apiKey ?? '').trim(),
		customerId: String(data.customerId ?? '').trim(),
		accessToken: String(data.accessToken ?? ''),
	};
}

/**
 * readCredentials for a node's item (`itemIndex`: n8n resolves a credential's expressions with each
 * item): a refused base URL or an empty API key or customer ID is the item's error, before anything
 * is sent. The error names the field, never its value.
 */
export function readNodeCredentials(
	node: INode,
	data: ICredentialDataDecryptedObject,
	itemIndex = 0,
): ApiCredentials {
	let credentials: ApiCredentials;
	try {
		credentials = readCredentials(data);
	} catch (error) {
		// readCredentials throws nothing but a BaseUrlError.
		throw new NodeOperationError(node, (error as BaseUrlError).message, {
			description: `Nothing was sent. ${BASE_URL_HINT}`,
			itemIndex,
		});
	}
	const empty = [
		...(credentials.apiKey ? [] : ['API Key']),
		...(credentials.customerId ? [] : ['Customer ID']),
	];
	if (empty.length) {
		throw new NodeOperationError(
			node,
			`The credential's ${empty.join(' and ')} ${empty.length > 1 ? 'are' : 'is'} empty for item ${itemIndex + 1}`,
			{
				description:
					"Nothing was sent. Fill it in the credential; where it is an expression, check that it gives a value for this item (an expression that reads the item's data gives nothing when that data is missing).",
				itemIndex,
			},
		);
	}
	return credentials;
}

/**
 * Which account answered, as evidence shows it: the first 16 hex characters of the SHA-256 of the
 * base URL and the customer ID. It tells accounts apart and reveals neither.
 */
export function accountFingerprint({ baseUrl, customerId }: ApiCredentials): string {
	return createHash('sha256').update(`${baseUrl}\n${customerId}`).digest('hex').slice(0, 16);
}

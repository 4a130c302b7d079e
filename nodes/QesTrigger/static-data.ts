import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the node's workflow static data (`getWorkflowStaticData('node')`,
 * stored by n8n under the key `node:<node name>`):
 *
 * ```
 * {
 *   registration: {
 *     webhookUrl:   string   // the n8n URL registered with POST /onboarding/configureWebhook
 *     webhookId?:   string   // data.id the API returned, when it returned one
 *     secretHeader: string   // header name sent in metadata.authHeader (e.g. X-Verification-Webhook-Secret)
 *     secret:       string   // 64 hex chars from crypto.randomBytes(32); never output or logged
 *     registeredAt: string   // ISO time of the registration
 *     test:         boolean  // true when made for "Listen for test event" (n8n's test URL)
 *   },
 *   recentPings: { [sha256 of the canonical JSON body]: epoch ms of receipt }  // de-duplication window
 * }
 * ```
 *
 * n8n only notices changes made directly on the node's static-data object, so every update assigns a
 * whole new value to `registration` or `recentPings` instead of mutating them in place.
 */
export interface Registration extends IDataObject {
	webhookUrl: string;
	webhookId?: string;
	secretHeader: string;
	secret: string;
	registeredAt: string;
	test: boolean;
}

export type RecentPings = Record<string, number>;

export interface TriggerStaticData extends IDataObject {
	registration?: Registration;
	recentPings?: RecentPings;
}

/** The stored registration, if it is complete; anything malformed counts as none. */
export function storedRegistration(data: IDataObject): Registration | undefined {
	const value = data.registration as Partial<Registration> | undefined;
	if (!value || typeof value !== 'object') return undefined;
	if (typeof value.webhookUrl !== 'string' || typeof value.secret !== 'string' || value.secret === '') return undefined;
	if (typeof value.secretHeader !== 'string' || value.secretHeader === '') return undefined;
	return value as Registration;
}

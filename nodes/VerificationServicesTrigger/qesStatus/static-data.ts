import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the node's workflow static data (`getWorkflowStaticData('node')`,
 * stored by n8n under the key `node:<node name>`):
 *
 * ```
 * {
 *   registration: {
 *     webhookUrl:   string   // the n8n URL registered with POST /onboarding/configureWebhook
 *     secretHeader: string   // header name sent in metadata.authHeader (e.g. X-Verification-Webhook-Secret)
 *     secretSha256: string   // SHA-256 (64 lower-case hex chars) of the secret sent in metadata.authHeader
 *   }
 * }
 * ```
 *
 * The secret itself (64 hex chars from crypto.randomBytes(32)) is NEVER stored: it exists only in memory
 * during create() to be sent to the API. Static data is not private: n8n 1.x copies it into every
 * execution's workflowData and `GET /rest/workflows/:id` returns it, so whoever can read executions or
 * workflows can read it. A ping's header value is hashed and compared with `secretSha256` instead.
 *
 * The duplicate memory is not here (shared/delivery/delivery-memory.ts says why).
 *
 * n8n only notices changes made directly on the node's static-data object, so every update assigns a
 * whole new value to `registration` instead of mutating it in place.
 */
export interface Registration extends IDataObject {
	webhookUrl: string;
	secretHeader: string;
	secretSha256: string;
}

export interface TriggerStaticData extends IDataObject {
	registration?: Registration;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The stored registration, if it is complete; anything malformed counts as none (it must be made again). */
export function storedRegistration(data: IDataObject): Registration | undefined {
	const value = data.registration as Partial<Registration> | undefined;
	if (!value || typeof value !== 'object') return undefined;
	if (typeof value.webhookUrl !== 'string') return undefined;
	if (typeof value.secretSha256 !== 'string' || !SHA256_HEX.test(value.secretSha256))
		return undefined;
	if (typeof value.secretHeader !== 'string' || value.secretHeader === '') return undefined;
	return value as Registration;
}

import type { TriggerSource } from '../trigger-source';
import { qesStatusProperties } from './description';
import { receivePing } from './receive';
import { forgetRegistration, hasRegistration, register } from './webhook-lifecycle';

/**
 * QES onboarding status pings.
 *
 * Activation (and "Listen for test event") registers n8n's webhook URL with
 * POST /onboarding/configureWebhook and metadata.authHeader = { 'X-Verification-Webhook-Secret':
 * <random secret> } (header name: option Secret Header Name, parameter options.headerName). The
 * provider replays that header with every ping; webhook() answers 401 when it is missing or wrong.
 * The registration (URL, id, header name, SHA-256 of the secret; never the secret itself, as n8n
 * copies static data into executions and returns it with the workflow) and the de-duplication
 * memory live in the node's static data, key `node:<node name>`; the layout is documented in
 * static-data.ts. Copies of a ping that arrive together are told apart in this process's memory
 * (shared/delivery/delivery-memory.ts); receive.ts says who answers.
 *
 * Output: one item per accepted ping = the ping's JSON body as it arrived, plus, when enabled,
 * `verification` (full getVerification response) or `verificationError` ({ message, httpCode?,
 * description?, timedOut? }), `headers` (without the secret header) and `receivedAt` (ISO 8601).
 */
export const qesStatusSource: TriggerSource = {
	value: 'qesStatus',
	name: 'QES Status Ping',
	action: 'On QES onboarding status ping',
	description:
		'A QES onboarding session changed its status, e.g. the person was identified or signed; the trigger registers its URL with the API',
	properties: qesStatusProperties,
	checkExists: hasRegistration,
	create: register,
	delete: forgetRegistration,
	webhook: receivePing,
};

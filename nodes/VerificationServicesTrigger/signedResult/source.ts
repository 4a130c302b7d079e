import { type IHookFunctions, NodeOperationError } from 'n8n-workflow';

import type { TriggerSource } from '../trigger-source';
import { signedResultProperties } from './description';
import { WEBHOOK_CREDENTIAL_TYPE, receiveDelivery } from './receive';
import { checkSigningSecret } from './secret-check';

/**
 * Signed results: hosted identity journey results and bank payment results. There is no
 * registration API: the user gives the provider the node's production URL and agrees on a webhook
 * secret, which goes into the credential.
 *
 * Every delivery must carry header `Signature` = hex HMAC-SHA256 of the raw body with that secret
 * (receive.ts lists the checks in order). A started delivery is answered 200 by n8n once the
 * execution exists (n8n 2.x; 1.x answers as it starts it), before the workflow runs; copies of one
 * result (the provider resends for about 24 hours) start it once, also when they arrive together
 * (nodes/shared/delivery/delivery-memory.ts: in this n8n process's memory).
 *
 * Output: one item per accepted delivery = the body's fields as they arrived (an encrypted
 * text/plain body as the string `body`), plus `resultType` (journeyResult, paymentResult,
 * unrecognised, encrypted), `success` for journey results and `paymentOutcome` (succeeded, failed,
 * pending) for payment results.
 */
export const signedResultSource: TriggerSource = {
	value: 'signedResult',
	name: 'Signed Journey or Payment Result',
	action: 'On signed journey or payment result',
	description:
		'The provider delivers a hosted identity journey result or a bank payment result, signed with the webhook secret, to the URL you gave it',
	properties: signedResultProperties,
	// The URL is agreed with the provider by hand, so nothing is registered anywhere: activation
	// (create, run on every activation as checkExists says there is nothing yet) only refuses a
	// credential whose secret could never match, and deactivation has nothing to remove.
	async checkExists() {
		return false;
	},
	async create(this: IHookFunctions) {
		const credentials = await this.getCredentials<{ signingSecret?: unknown }>(
			WEBHOOK_CREDENTIAL_TYPE,
		);
		const check = checkSigningSecret(credentials.signingSecret);
		if (check.status !== 'OK') throw new NodeOperationError(this.getNode(), check.message);
		return true;
	},
	async delete() {
		return true;
	},
	webhook: receiveDelivery,
};

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readTriggerOptions } from './description';
import { fetchVerification } from './enrich';
import { headerValue, secretMatches, withoutHeaders } from './ping-check';
import { isDuplicatePing, pingHash } from './ping-dedup';
import { bodyStatus, isPlainObject, pingSessionId, statusAllowed } from './ping-fields';
import { storedRegistration, type TriggerStaticData } from './static-data';

/**
 * One incoming ping, in this order:
 *  1. secret header check (Verify Secret Header): the header value's SHA-256 against the stored
 *     secretSha256; missing or wrong -> 401, nothing starts;
 *  2. duplicate check (Ignore Duplicates Within): same body within the window -> 200, nothing starts;
 *  3. status filter (Only Statuses) on the ping's status -> 200, nothing starts;
 *  4. Fetch Verification Result (bounded to 5 s); a ping without a status is filtered on the
 *     fetched data.status instead;
 *  5. one item: the ping's fields as they arrived, plus `verification` / `verificationError`,
 *     `headers`, `receivedAt` when enabled. An added key the ping already uses is written as
 *     trigger<Key> (e.g. triggerHeaders), so nothing the provider sent is overwritten.
 * The response is sent by n8n (responseMode onReceived) as soon as this returns.
 */
export async function receivePing(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const options = readTriggerOptions(this.getNodeParameter('options', {}) as IDataObject);
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	const registration = storedRegistration(staticData);
	const headers = (this.getHeaderData() ?? {}) as IDataObject;

	if (options.verifySecret) {
		const accepted = registration !== undefined && secretMatches(headerValue(headers, registration.secretHeader), registration.secretSha256);
		if (!accepted) {
			this.logger.debug(
				registration
					? 'QES trigger rejected a ping: the secret header is missing or wrong'
					: 'QES trigger rejected a ping: no registration (or only one of an earlier layout) is stored; deactivate and activate the workflow',
			);
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
	}

	const body: unknown = this.getBodyData();
	if (isDuplicatePing(staticData, pingHash(body), options.dedupMinutes * 60_000)) {
		return notStarted('duplicate');
	}

	const status = bodyStatus(body);
	if (status !== undefined && !statusAllowed(status, options.onlyStatuses)) return notStarted('status', status);

	const json: IDataObject = isPlainObject(body) ? { ...body } : { body: body as IDataObject };
	if (options.fetchVerification) {
		const { verification, verificationError } = await fetchVerification(this, pingSessionId(body));
		if (status === undefined && options.onlyStatuses.length) {
			const fetchedStatus = verification === undefined ? undefined : bodyStatus(verification);
			if (!statusAllowed(fetchedStatus, options.onlyStatuses)) return notStarted('status', fetchedStatus);
		}
		if (verification !== undefined) addBeside(json, 'verification', verification as IDataObject);
		if (verificationError !== undefined) addBeside(json, 'verificationError', verificationError);
	} else if (status === undefined && options.onlyStatuses.length) {
		return notStarted('status');
	}
	if (options.includeHeaders) {
		const secretHeaders = [options.secretHeader, ...(registration ? [registration.secretHeader] : [])];
		addBeside(json, 'headers', withoutHeaders(headers, secretHeaders));
	}
	if (options.includeReceiveTime) addBeside(json, 'receivedAt', receivedAt);

	return { workflowData: [[{ json }]] };
}

/** Answered 200 with a short reason; no execution starts. */
function notStarted(reason: 'duplicate' | 'status', status?: string): IWebhookResponseData {
	return {
		webhookResponse: {
			received: true,
			started: false,
			reason: reason === 'duplicate' ? 'duplicate ping' : `status ${status === undefined ? 'unknown' : `"${status}"`} not in Only Statuses`,
		},
	};
}

function addBeside(json: IDataObject, key: string, value: IDataObject[keyof IDataObject]): void {
	const name = key in json ? `trigger${key[0].toUpperCase()}${key.slice(1)}` : key;
	json[name] = value;
}

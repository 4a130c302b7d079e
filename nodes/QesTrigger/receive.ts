import { type IDataObject, type IWebhookFunctions, type IWebhookResponseData, NodeOperationError } from 'n8n-workflow';

import { claimDelivery, type DeliveryClaim, startAnswered } from '../shared/delivery-memory';
import { ANSWER_WITHIN_MS, readTriggerOptions } from './description';
import { fetchVerification } from './enrich';
import { headerValue, secretMatches, withoutHeaders } from './ping-check';
import { duplicateKey } from './ping-dedup';
import { bodyStatus, isPlainObject, pingSessionId, statusAllowed } from './ping-fields';
import { storedRegistration, type TriggerStaticData } from './static-data';

/**
 * One incoming ping, in this order:
 *  1. secret header check (Verify Secret Header): the header value's SHA-256 against the stored
 *     secretSha256; missing or wrong -> 401, nothing starts;
 *  2. duplicate check (Ignore Duplicates Within, Duplicate Key): a copy of a ping seen within the
 *     window -> 200, nothing starts (not for test events: each one shows in the editor);
 *  3. status filter (Only Statuses) on the ping's status -> 200, nothing starts;
 *  4. Fetch Verification Result, bounded by Fetch Time Limit and by what is left of ANSWER_WITHIN_MS
 *     since the ping arrived; a ping without a status is filtered on the fetched data.status instead;
 *  5. one item: the ping's fields as they arrived, plus `verification` / `verificationError`,
 *     `headers`, `receivedAt` when enabled. An added key the ping already uses is written as
 *     trigger<Key> (e.g. triggerHeaders), so nothing the provider sent is overwritten.
 *
 * Who answers: an accepted ping with the duplicate check on is answered here (startAnswered, which
 * says why the duplicate memory, static data key `recentPings`, depends on it). Pings that start
 * nothing, and pings with the check off, are answered by n8n as usual.
 */
export async function receivePing(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const arrivedAt = Date.now();
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
					: 'QES trigger rejected a ping: no registration is stored; unpublish and publish the workflow (n8n 1.x: deactivate and activate)',
			);
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
	}

	const body: unknown = this.getBodyData();
	let claim: DeliveryClaim | undefined;
	if (options.dedupMinutes > 0 && this.getMode() !== 'manual') {
		const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().name}\u0000${registration?.secretSha256 ?? ''}`;
		claim = claimDelivery(scope, duplicateKey(body, options.dedupKey), options.dedupMinutes * 60_000, staticData.recentPings);
		// A new object each time: n8n marks static data as changed only on a top-level assignment.
		staticData.recentPings = claim.snapshot();
		if (claim.duplicate) return notStarted('duplicate');
	} else if (options.dedupMinutes === 0 && staticData.recentPings !== undefined) {
		delete staticData.recentPings;
	}

	try {
		const item = await buildItem.call(this, body, headers, options, registration?.secretHeader, arrivedAt);
		if ('notStarted' in item) return item.notStarted;
		if (!claim) return { workflowData: [[{ json: item.json }]] };
		return startAnswered(this, [{ json: item.json }]);
	} catch (error) {
		// Not answered 2xx, so the provider sends it again: that copy must not count as a duplicate.
		claim?.release();
		if (claim) staticData.recentPings = claim.snapshot();
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}

async function buildItem(
	this: IWebhookFunctions,
	body: unknown,
	headers: IDataObject,
	options: ReturnType<typeof readTriggerOptions>,
	registeredHeader: string | undefined,
	arrivedAt: number,
): Promise<{ json: IDataObject } | { notStarted: IWebhookResponseData }> {
	const status = bodyStatus(body);
	if (status !== undefined && !statusAllowed(status, options.onlyStatuses)) return { notStarted: notStarted('status', status) };

	const json: IDataObject = isPlainObject(body) ? { ...body } : { body: body as IDataObject };
	if (options.fetchVerification) {
		const left = ANSWER_WITHIN_MS - (Date.now() - arrivedAt);
		const { verification, verificationError } = await fetchVerification(this, pingSessionId(body), Math.max(0, Math.min(options.fetchTimeLimitMs, left)));
		if (status === undefined && options.onlyStatuses.length) {
			const fetchedStatus = verification === undefined ? undefined : bodyStatus(verification);
			if (!statusAllowed(fetchedStatus, options.onlyStatuses)) return { notStarted: notStarted('status', fetchedStatus) };
		}
		if (verification !== undefined) addBeside(json, 'verification', verification as IDataObject);
		if (verificationError !== undefined) addBeside(json, 'verificationError', verificationError);
	} else if (status === undefined && options.onlyStatuses.length) {
		return { notStarted: notStarted('status') };
	}
	if (options.includeHeaders) {
		const secretHeaders = [options.secretHeader, ...(registeredHeader ? [registeredHeader] : [])];
		addBeside(json, 'headers', withoutHeaders(headers, secretHeaders));
	}
	if (options.includeReceiveTime) addBeside(json, 'receivedAt', new Date(arrivedAt).toISOString());
	return { json };
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

import {
	type IDataObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
	NodeOperationError,
} from 'n8n-workflow';

import {
	claimOrWait,
	type DeliveryClaim,
	keepOrReleaseByResponse,
	STARTED_RESPONSE,
} from '../../shared/delivery/delivery-memory';
import { isObject } from '../../shared/responses/json';
import { ANSWER_WITHIN_MS, readTriggerOptions } from './description';
import { type Enrichment, fetchVerification } from './enrich';
import { headerValue, secretMatches, withoutHeaders } from './ping-check';
import { duplicateKey } from './ping-dedup';
import { bodyStatus, pingSessionId, statusAllowed } from './ping-fields';
import { storedRegistration, type TriggerStaticData } from './static-data';
import { addBeside, answerNow, notStarted } from '../webhook-answers';

/**
 * One incoming ping, in this order:
 *  1. secret header check (Verify Secret Header): the header value's SHA-256 against the stored
 *     secretSha256; missing or wrong -> 401, nothing starts;
 *  2. duplicate check (Ignore Duplicates Within, Duplicate Key): a copy of a ping taken within the
 *     window -> 200, nothing starts (not for test events: each one shows in the editor); a copy
 *     that arrives while the first is not answered yet waits for that answer (503 after 5 s);
 *  3. status filter (Only Statuses) on the ping's status -> 200, nothing starts;
 *  4. Get Verification, bounded by Fetch Time Limit and by what is left of ANSWER_WITHIN_MS since
 *     the ping arrived: with Fetch Verification Result on, and for a ping without a status while
 *     Only Statuses is set (it is then filtered on the fetched data.status). When that status cannot
 *     be had for now (the call timed out, was refused with 429 or 5xx, or failed on the network),
 *     the ping is answered 503 and starts nothing: the provider sends it again. When it can never
 *     be had (no session named, another 4xx, a result without status), the ping starts the
 *     workflow with `verificationError` saying why;
 *  5. one item: the ping's fields as they arrived, plus `verification` / `verificationError`,
 *     `headers`, `receivedAt` when enabled. An added key the ping already uses is written as
 *     trigger<Key> (e.g. triggerHeaders), so nothing the provider sent is overwritten.
 *
 * Who answers: n8n, with 200 `{"received":true,"started":true}` for a started ping (n8n 2.x once the
 * execution exists). The duplicate memory keeps a ping only once it was answered 2xx
 * (shared/delivery/delivery-memory.ts), so a ping answered 503 or 500 is taken when it comes again.
 */
export async function receivePing(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const arrivedAt = Date.now();
	const options = readTriggerOptions(this.getNodeParameter('options', {}) as IDataObject);
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	const registration = storedRegistration(staticData);
	const headers = (this.getHeaderData() ?? {}) as IDataObject;

	if (options.verifySecret && !secretAccepted(this, registration, headers))
		return answerNow(this, 401, { message: 'Unauthorized' });

	const body: unknown = this.getBodyData();
	const taken = await claimPing(this, body, options, registration?.secretSha256);
	if ('answered' in taken) return taken.answered;
	const { claim } = taken;

	try {
		const item = await buildItem.call(
			this,
			body,
			headers,
			options,
			registration?.secretHeader,
			arrivedAt,
		);
		if ('notStarted' in item) return item.notStarted;
		if ('retry' in item)
			return answerNow(this, 503, { received: true, started: false, reason: item.retry });
		return { workflowData: [[{ json: item.json }]], webhookResponse: STARTED_RESPONSE };
	} catch (error) {
		// Not answered 2xx, so the provider sends it again: that copy must not count as a duplicate.
		if (claim && !claim.duplicate) claim.release();
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}

/** Verify Secret Header: the header value's SHA-256 against the stored registration's. */
function secretAccepted(
	context: IWebhookFunctions,
	registration: ReturnType<typeof storedRegistration>,
	headers: IDataObject,
): boolean {
	const accepted =
		registration !== undefined &&
		secretMatches(headerValue(headers, registration.secretHeader), registration.secretSha256);
	if (!accepted)
		context.logger.debug(
			registration
				? 'QES trigger rejected a ping: the secret header is missing or wrong'
				: 'QES trigger rejected a ping: no registration is stored; unpublish and publish the workflow (n8n 1.x: deactivate and activate)',
		);
	return accepted;
}

/**
 * Ignore Duplicates Within: the ping's claim in the duplicate memory (none when the memory is off or
 * for a test event), or the answer for a copy already taken or still being taken.
 */
async function claimPing(
	context: IWebhookFunctions,
	body: unknown,
	options: ReturnType<typeof readTriggerOptions>,
	secretSha256: string | undefined,
): Promise<{ claim?: DeliveryClaim } | { answered: IWebhookResponseData }> {
	if (options.dedupMinutes <= 0 || context.getMode() === 'manual') return {};
	const scope = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().name}\u0000${secretSha256 ?? ''}`;
	const outcome = await claimOrWait(
		scope,
		duplicateKey(body, options.dedupKey),
		options.dedupMinutes * 60_000,
	);
	if ('undecided' in outcome)
		return {
			answered: answerNow(context, 503, {
				received: true,
				started: false,
				reason: 'a copy of this ping is being taken; send it again',
			}),
		};
	if ('duplicate' in outcome) return { answered: notStarted('duplicate ping') };
	keepOrReleaseByResponse(context, outcome.claim);
	return { claim: outcome.claim };
}

type BuiltItem = { json: IDataObject } | { notStarted: IWebhookResponseData } | { retry: string };

async function buildItem(
	this: IWebhookFunctions,
	body: unknown,
	headers: IDataObject,
	options: ReturnType<typeof readTriggerOptions>,
	registeredHeader: string | undefined,
	arrivedAt: number,
): Promise<BuiltItem> {
	const status = bodyStatus(body);
	if (status !== undefined && !statusAllowed(status, options.onlyStatuses))
		return { notStarted: notStarted(statusReason(status)) };

	const json: IDataObject = isObject(body) ? { ...body } : { body: body as IDataObject };
	const filterOnFetched = status === undefined && options.onlyStatuses.length > 0;
	if (options.fetchVerification || filterOnFetched) {
		const stop = await addVerification(this, json, body, options, arrivedAt, filterOnFetched);
		if (stop) return stop;
	}
	if (options.includeHeaders) {
		const secretHeaders = [options.secretHeader, ...(registeredHeader ? [registeredHeader] : [])];
		addBeside(json, 'headers', withoutHeaders(headers, secretHeaders));
	}
	if (options.includeReceiveTime) addBeside(json, 'receivedAt', new Date(arrivedAt).toISOString());
	return { json };
}

/**
 * Step 4: Get Verification's answer added to `json` (Fetch Verification Result), and Only Statuses
 * applied to its status when the ping named none (`filterOnFetched`); a ping that must not start now
 * is returned.
 */
async function addVerification(
	context: IWebhookFunctions,
	json: IDataObject,
	body: unknown,
	options: ReturnType<typeof readTriggerOptions>,
	arrivedAt: number,
	filterOnFetched: boolean,
): Promise<Exclude<BuiltItem, { json: IDataObject }> | undefined> {
	const left = ANSWER_WITHIN_MS - (Date.now() - arrivedAt);
	const sessionId = pingSessionId(body);
	const fetched = await fetchVerification(
		context,
		sessionId,
		Math.max(0, Math.min(options.fetchTimeLimitMs, left)),
	);
	let { verificationError } = fetched;
	if (filterOnFetched) {
		if (fetched.verification === undefined) {
			if (sessionId !== undefined && isTransient(fetched)) {
				const why =
					fetched.verificationError?.timedOut === true
						? 'Get Verification did not finish in time'
						: String(fetched.verificationError?.message ?? 'Get Verification failed');
				return { retry: `status unknown: ${why}; send the ping again` };
			}
		} else {
			const fetchedStatus = bodyStatus(fetched.verification);
			if (fetchedStatus !== undefined && !statusAllowed(fetchedStatus, options.onlyStatuses))
				return { notStarted: notStarted(statusReason(fetchedStatus)) };
			if (fetchedStatus === undefined)
				verificationError = {
					message: 'Get Verification named no status, so Only Statuses could not be applied',
				};
		}
		if (verificationError !== undefined) {
			verificationError = {
				...verificationError,
				message: `${String(verificationError.message)}; Only Statuses could not be applied, so the ping starts the workflow`,
			};
		}
	}
	if (options.fetchVerification && fetched.verification !== undefined)
		addBeside(json, 'verification', fetched.verification as IDataObject);
	if (verificationError !== undefined) addBeside(json, 'verificationError', verificationError);
	return undefined;
}

/** A failure that may pass: the call ran out of time, was rate-limited, met a 5xx or never got an answer. */
function isTransient({ verificationError }: Enrichment): boolean {
	if (!verificationError) return false;
	if (verificationError.timedOut === true) return true;
	const code = verificationError.httpCode;
	return typeof code !== 'number' || code === 408 || code === 429 || code >= 500;
}

const statusReason = (status: string | undefined) =>
	`status ${status === undefined ? 'unknown' : `"${status}"`} not in Only Statuses`;

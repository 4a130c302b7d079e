import { createHash } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { bodyHash } from '../../shared/responses/canonical-json';
import {
	claimOrWait,
	type DeliveryClaim,
	keepOrReleaseByResponse,
	STARTED_RESPONSE,
} from '../../shared/delivery/delivery-memory';
import { paymentOutcome } from '../../shared/responses/payment-outcome';
import { isObject } from '../../shared/responses/json';
import { REDACTED } from '../../shared/transport/redact';
import {
	type DeliveryContent,
	type DeliveryRequest,
	parseDeliveryBody,
	readDeliveryBody,
} from './delivery-body';
import { type EventFilter, readTriggerOptions, type TriggerOptions } from './description';
import {
	journeyVerdict,
	resultIdentity,
	resultStatus,
	type ResultType,
	resultTypeOf,
} from './recognise';
import { isStale, REPLAY_WINDOW_MINUTES } from './replay-window';
import { cachedSecret } from './secret-cache';
import { checkSigningSecret } from './secret-check';
import { SIGNATURE_HEADER, signatureMatches, signatureOf } from './signature';
import { claimedReference, confirmPayment } from './unsigned-payment';
import { addBeside, answerNow, notStarted } from '../webhook-answers';

export const WEBHOOK_CREDENTIAL_TYPE = 'verificationServicesWebhookApi';

/** 24 hex chars (96 bits of SHA-256) per duplicate key. */
const KEY_CHARS = 24;

/**
 * One delivery, in this order; every refusal and every "not started" is answered at once:
 *  1. size: a body over 5 MiB (or over n8n's own limit, when n8n left it unread) -> 413;
 *  2. signature: header Signature must be the hex HMAC-SHA256 of the raw body bytes with the
 *     credential's signing secret -> else 401 `{"message":"Unauthorized"}`, whatever was wrong;
 *     except a delivery without the header under Unsigned Payment Results = Confirm With the API,
 *     which receiveUnsigned() confirms with Get Payment Status;
 *  3. the body: `text/plain` stays the raw string (an encrypted payload), anything else is parsed
 *     as JSON (a body that is not JSON stays the raw string);
 *  4. replay window: a body whose own timestamp is more than the window (25 hours, or Ignore
 *     Duplicates Within when longer) from now -> 400, nothing starts;
 *  5. Events: a result recognised as the other kind -> 200, nothing starts (what cannot be told
 *     apart, encrypted or unrecognised, always passes);
 *  6. duplicates (Ignore Duplicates Within): the same result (kind, transaction, status, verdict)
 *     or the same body taken within the window -> 200, nothing starts (not for test events); a
 *     copy that arrives while the first is not answered yet waits for that answer, and is answered
 *     503 if it does not come within 5 s;
 *  7. the execution: n8n answers 200 `{"received":true,"started":true}` itself; n8n 2.x once it has
 *     created the execution, and 500 when it could not (the provider resends, and the duplicate
 *     memory lets that copy through).
 * Nothing here throws: n8n 2.x would start an execution with the error.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	let claim: DeliveryClaim | undefined;
	try {
		return await takeDelivery(this, (taken) => (claim = taken));
	} catch (error) {
		// Not answered 2xx, so the provider sends it again: that copy must not count as a duplicate.
		if (claim && !claim.duplicate) claim.release();
		this.logger.error(
			`${this.getNode().name} could not take a delivery: ${(error as Error).message}`,
		);
		return answer(this, 500, 'Internal Server Error');
	}
}

/** Steps 1 to 3: the size, the signature (or an unsigned payment result to confirm), the body. */
async function takeDelivery(
	context: IWebhookFunctions,
	onClaim: (claim: DeliveryClaim) => void,
): Promise<IWebhookResponseData> {
	const read = await readDeliveryBody(context.getRequestObject() as unknown as DeliveryRequest);
	if ('tooLarge' in read) return answer(context, 413, 'Payload Too Large');
	if ('unreadable' in read) return answer(context, 400, 'Bad Request');

	const headers = context.getHeaderData() as IDataObject;
	const secret = await signingSecret(context);
	const secretState = checkSigningSecret(secret);
	if (secretState.status !== 'OK') {
		context.logger.warn(`${context.getNode().name} refused a delivery: ${secretState.message}`);
		return answer(context, 401, 'Unauthorized');
	}
	const options = readTriggerOptions(
		context.getNodeParameter('events', 'all'),
		context.getNodeParameter('dedupMinutes', undefined),
		context.getNodeParameter('unsignedPayments', 'refuse'),
	);
	if (!signatureMatches(read.bytes, signatureOf(headers), secret)) {
		if (options.confirmUnsigned && headers[SIGNATURE_HEADER] === undefined)
			return await receiveUnsigned(context, read.bytes, headers, options);
		context.logger.debug(
			`${context.getNode().name} refused a delivery: the Signature header is missing or does not match the body`,
		);
		return answer(context, 401, 'Unauthorized');
	}
	const content = parseDeliveryBody(read.bytes, headers['content-type']);
	return await startSigned(context, content, options, onClaim);
}

/** Steps 4 to 7 for a signed delivery: the replay window, Events, duplicates, the execution. */
async function startSigned(
	context: IWebhookFunctions,
	content: DeliveryContent,
	options: TriggerOptions,
	onClaim: (claim: DeliveryClaim) => void,
): Promise<IWebhookResponseData> {
	const replayMinutes = Math.max(REPLAY_WINDOW_MINUTES, options.dedupMinutes);
	if ('json' in content && isStale(content.json, replayMinutes * 60_000)) {
		context.logger.debug(
			`${context.getNode().name} refused a delivery: its timestamp is outside the replay window`,
		);
		return answer(
			context,
			400,
			`Stale result: its timestamp is more than ${replayMinutes} minutes from now`,
		);
	}
	const type: ResultType =
		'json' in content
			? resultTypeOf(content.json)
			: content.encrypted
				? 'encrypted'
				: 'unrecognised';
	if (!passes(options.events, type)) return notStarted('not in Events');
	return await startOnce(
		context,
		duplicateKeys(content, type),
		outputItem(content, type),
		options,
		onClaim,
	);
}

/**
 * Starts the workflow with `item` unless a delivery with one of `keys` was taken within the window
 * (duplicate memory: Ignore Duplicates Within; not for test events). n8n answers STARTED_RESPONSE.
 */
async function startOnce(
	context: IWebhookFunctions,
	keys: string[],
	item: IDataObject,
	options: TriggerOptions,
	onClaim: (claim: DeliveryClaim) => void,
): Promise<IWebhookResponseData> {
	let claim: DeliveryClaim | undefined;
	if (options.dedupMinutes > 0 && context.getMode() !== 'manual') {
		const scope = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().name}`;
		const outcome = await claimOrWait(scope, keys, options.dedupMinutes * 60_000);
		if ('undecided' in outcome)
			return answer(context, 503, 'A copy of this delivery is being taken; send it again later');
		if ('duplicate' in outcome) return notStarted('duplicate');
		onClaim(outcome.claim);
		claim = outcome.claim;
	}
	keepOrReleaseByResponse(context, claim);
	return { workflowData: [[{ json: item }]], webhookResponse: STARTED_RESPONSE };
}

/**
 * A delivery without a Signature header, with Unsigned Payment Results = Confirm With the API: only
 * its referenceId is read, and the workflow starts with Get Payment Status's answer for it
 * (unsigned-payment.ts). No referenceId, or a payment the API does not know -> 401, as any unsigned
 * delivery; the API not answering now -> 503, so the provider sends it again.
 */
async function receiveUnsigned(
	context: IWebhookFunctions,
	bytes: Buffer,
	headers: IDataObject,
	options: TriggerOptions,
): Promise<IWebhookResponseData> {
	const content = parseDeliveryBody(bytes, headers['content-type']);
	const referenceId = 'json' in content ? claimedReference(content.json) : undefined;
	if (referenceId === undefined) return answer(context, 401, 'Unauthorized');
	if (!passes(options.events, 'paymentResult')) return notStarted('not in Events');
	const confirmation = await confirmPayment(context, referenceId);
	if ('refused' in confirmation) {
		context.logger.debug(
			`${context.getNode().name} refused an unsigned delivery: ${confirmation.refused}`,
		);
		return answer(context, 401, 'Unauthorized');
	}
	if ('retry' in confirmation) {
		context.logger.warn(
			`${context.getNode().name} could not confirm an unsigned payment result: ${confirmation.retry}`,
		);
		return answer(context, 503, 'The payment could not be confirmed now; send it again later');
	}
	const identity = [
		'paymentResult',
		confirmation.referenceId,
		confirmation.status.toLowerCase(),
		'',
	];
	return await startOnce(
		context,
		[shortHash(JSON.stringify(['result', ...identity]))],
		confirmation.item,
		options,
		() => {},
	);
}

/** The credential's signing secret ('' when it cannot be read), cached briefly (secret-cache.ts). */
async function signingSecret(context: IWebhookFunctions): Promise<string> {
	return await cachedSecret(
		context.getNode().credentials?.[WEBHOOK_CREDENTIAL_TYPE]?.id,
		async () => {
			try {
				const credentials = await context.getCredentials<{ signingSecret?: unknown }>(
					WEBHOOK_CREDENTIAL_TYPE,
				);
				return typeof credentials.signingSecret === 'string' ? credentials.signingSecret : '';
			} catch {
				return '';
			}
		},
	);
}

/** Answers here with `status` and a message that says nothing about why; nothing starts. */
const answer = (context: IWebhookFunctions, status: number, message: string) =>
	answerNow(context, status, { message });

/** What cannot be told apart (encrypted or unrecognised) passes every filter rather than be lost. */
function passes(filter: EventFilter, type: ResultType): boolean {
	return filter === 'all' || type === 'encrypted' || type === 'unrecognised' || type === filter;
}

const shortHash = (text: string) =>
	createHash('sha256').update(text).digest('hex').slice(0, KEY_CHARS);

/** The body (canonical JSON: key order and spacing do not matter) and, when it names one, the result. */
function duplicateKeys(content: DeliveryContent, type: ResultType): string[] {
	const value = 'text' in content ? content.text : content.json;
	const keys = [bodyHash(value).slice(0, KEY_CHARS)];
	const identity = 'json' in content ? resultIdentity(content.json, type) : undefined;
	if (identity) keys.push(shortHash(JSON.stringify(['result', ...identity])));
	return keys;
}

/**
 * The delivery's fields as they arrived (a body that is not a JSON object under `body`), plus
 * `resultType`, for a journey result `success` when only the envelope or generalTransactionData
 * carries it, and for a payment result `paymentOutcome`. An added key the body already uses is
 * written as trigger<Key>, so nothing the provider sent is overwritten. One exception: journey
 * results carry the account's `customerId`, a secret of the API credential, which is never output.
 */
function outputItem(content: DeliveryContent, type: ResultType): IDataObject {
	if ('text' in content) return { body: content.text, resultType: type };
	const json: IDataObject = isObject(content.json)
		? withoutCustomerId(content.json)
		: { body: content.json as IDataObject[keyof IDataObject] };
	addBeside(json, 'resultType', type);
	if (type === 'journeyResult' && json.success === undefined) {
		const verdict = journeyVerdict(content.json);
		if (verdict !== undefined) json.success = verdict;
	}
	if (type === 'paymentResult')
		addBeside(json, 'paymentOutcome', paymentOutcome(resultStatus(content.json)));
	return json;
}

/** A copy with `customerId` / `customer_id` (top level and in a `data` envelope) replaced by the redaction marker. */
function withoutCustomerId(body: IDataObject): IDataObject {
	const redact = (layer: IDataObject) => {
		const copy = { ...layer };
		for (const name of ['customerId', 'customer_id'])
			if (copy[name] !== undefined) copy[name] = REDACTED;
		return copy;
	};
	const json = redact(body);
	if (isObject(json.data)) json.data = redact(json.data);
	return json;
}

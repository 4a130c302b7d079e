import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Answered here with `status` and `body`; nothing starts. */
export function answerNow(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = context.getResponseObject();
	if (!res.headersSent) res.status(status).json(body);
	return { noWebhookResponse: true };
}

/** Answered 200 with the reason; no execution starts. */
export function notStarted(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

/**
 * Sets what the trigger adds to a delivery's fields, under `key`, or under `trigger<Key>` where the
 * delivery has a field of that name already: nothing the provider sent is overwritten.
 */
export function addBeside(json: IDataObject, key: string, value: IDataObject[string]): void {
	json[key in json ? `trigger${key[0].toUpperCase()}${key.slice(1)}` : key] = value;
}

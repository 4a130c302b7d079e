import type { IDataObject } from 'n8n-workflow';

/** Largest body accepted: 5 MiB. A larger one is answered 413 and starts nothing. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** What webhook() gets from n8n: the request, its body unread (see the node's `options`) or already read. */
export interface DeliveryRequest {
	headers: IDataObject;
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
	/** The request stream (absent in a unit test's stand-in). */
	complete?: boolean;
	resume?: () => unknown;
	once?: (event: 'end' | 'close' | 'error', listener: () => void) => unknown;
}

export type BodyRead = { bytes: Buffer } | { tooLarge: true } | { unreadable: true };

/** raw-body's error for a body over n8n's own limit (N8N_PAYLOAD_SIZE_MAX). */
function isTooLarge(error: unknown): boolean {
	const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
	return status === 413 || type === 'entity.too.large';
}

/**
 * The exact body bytes, the only input the signature is checked on. A body over MAX_BODY_BYTES, by
 * its Content-Length before anything is read, or by what arrived, or over n8n's own limit
 * (N8N_PAYLOAD_SIZE_MAX) when n8n left it unread (a content type it does not parse; a JSON, text,
 * form or XML body over that limit n8n refuses with a 500 before the trigger runs), is `tooLarge`;
 * a body that could not be read (the sender went away mid-body) is `unreadable`.
 */
export async function readDeliveryBody(req: DeliveryRequest): Promise<BodyRead> {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return await tooLarge(req);
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') {
		const failure = await req.readRawBody().then(
			() => undefined,
			(error: unknown) => error ?? new Error('unreadable body'),
		);
		if (failure !== undefined)
			return isTooLarge(failure) ? await tooLarge(req) : { unreadable: true };
	}
	const bytes = Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);
	return bytes.length > MAX_BODY_BYTES ? { tooLarge: true } : { bytes };
}

/**
 * Reads off (and drops) what is left of the body first, as Express's body parser does before its
 * 413: a sender still writing when the answer and the connection's close arrive gets a reset
 * instead of the 413, and would take it for a network error.
 */
async function tooLarge(req: DeliveryRequest): Promise<BodyRead> {
	if (!req.complete && typeof req.resume === 'function' && typeof req.once === 'function') {
		const once = req.once.bind(req);
		await new Promise<void>((resolve) => {
			for (const event of ['end', 'close', 'error'] as const) once(event, resolve);
			req.resume!();
		});
	}
	return { tooLarge: true };
}

/** A body as the workflow gets it: parsed JSON, or the text as it arrived. */
export type DeliveryContent = { json: unknown } | { text: string; encrypted: boolean };

/**
 * `text/plain` is how the provider sends encrypted payloads: the text as it arrived, never parsed.
 * Anything else is read as JSON (UTF-8, a leading byte order mark ignored); a body that is not JSON
 * is passed on as text too, so a signed delivery is never dropped.
 */
export function parseDeliveryBody(bytes: Buffer, contentType: unknown): DeliveryContent {
	const text = bytes.toString('utf8');
	const mediaType =
		typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : '';
	if (mediaType === 'text/plain') return { text, encrypted: true };
	try {
		return { json: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown };
	} catch {
		return { text, encrypted: false };
	}
}

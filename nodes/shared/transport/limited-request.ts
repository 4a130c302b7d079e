import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/**
 * One HTTP exchange through n8n's request helper, held to three rules whatever n8n's defaults are:
 * no redirect is followed (n8n's helper would follow it and send the headers, the key or the token,
 * to the new origin), one deadline covers the headers and the whole body (the helper's own timeout
 * stops counting once headers arrive), and the body is read up to a size cap (the helper buffers
 * any size). The body is read as a stream, the one way both n8n 1.x and 2.x let a node count it.
 */

export type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

/**
 * The largest answer read: above the largest legitimate one (a KYB document or a signed QES
 * document, some tens of MB), far below what would exhaust n8n's memory.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** A token exchange answers a few hundred bytes. */
export const MAX_TOKEN_RESPONSE_BYTES = 1024 * 1024;

/** Node's timers overflow above this (they then fire after 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

export interface RequestLimits {
	/** Until the last byte of the body. */
	timeoutMs: number;
	maxBytes: number;
	/** The caller's own end (the execution's cancel signal): ends the request at once. */
	signal?: AbortSignal;
}

export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: Buffer;
}

/** An answer the request path refuses to use: a redirect, or a body over the size cap. */
export abstract class ResponseRefused extends Error {
	constructor(
		message: string,
		readonly statusCode: number,
	) {
		super(message);
	}
}

/** A 3xx: never followed. `target` is the origin it pointed at (never its path or query: they may hold a token). */
export class RedirectRefused extends ResponseRefused {
	constructor(
		statusCode: number,
		readonly target: string,
	) {
		super(`a redirect (HTTP ${statusCode} to ${target}), which is not followed`, statusCode);
		this.name = 'RedirectRefused';
	}
}

export class ResponseTooLarge extends ResponseRefused {
	constructor(
		statusCode: number,
		readonly maxBytes: number,
	) {
		super(
			`an answer larger than the limit of ${sizeText(maxBytes)} (HTTP ${statusCode}), which was not read further`,
			statusCode,
		);
		this.name = 'ResponseTooLarge';
	}
}

/** The deadline passed: before the headers, or while the body was still arriving. */
export class ResponseDeadline extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(
		readonly timeoutMs: number,
		readonly headersArrived: boolean,
	) {
		super(
			`${headersArrived ? 'no complete answer' : 'no answer'} within the timeout of ${timeoutMs / 1000} s`,
		);
		this.name = 'ResponseDeadline';
	}
}

/** A link that is neither https nor on the credential's own origin: never fetched. */
export class InsecureLink extends Error {
	constructor(readonly origin: string) {
		super(`${origin} is not an https address`);
		this.name = 'InsecureLink';
	}
}

export function sizeText(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** The origin a redirect names, resolved against the request's URL; never its path or query. */
export function redirectTarget(location: unknown, requestUrl: string): string {
	if (typeof location !== 'string' || location.trim() === '') return 'no Location';
	try {
		const url = new URL(location.trim(), requestUrl);
		return url.origin !== 'null' ? url.origin : `a ${url.protocol} address`;
	} catch {
		return 'an unreadable Location';
	}
}

/**
 * Sends `options` and reads the whole answer within `limits`. Rejects with RedirectRefused,
 * ResponseTooLarge, ResponseDeadline, the helper's own error (network failures), or, once the caller's
 * signal aborted, whatever the aborted request threw (the caller checks its signal).
 */
export async function limitedRequest(
	httpRequest: HttpRequest,
	options: IHttpRequestOptions,
	limits: RequestLimits,
): Promise<RawResponse> {
	const deadline = AbortSignal.timeout(Math.min(Math.max(limits.timeoutMs, 1), MAX_TIMER_MS));
	const ends = new AbortController();
	const end = () => ends.abort();
	for (const signal of [limits.signal, deadline])
		signal?.addEventListener('abort', end, { once: true });
	if (limits.signal?.aborted) end();
	let headersArrived = false;
	let failure: unknown;
	try {
		const raw = (await httpRequest({
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			encoding: 'stream',
			timeout: limits.timeoutMs,
			abortSignal: ends.signal,
		})) as { statusCode: number; headers?: IDataObject; body: unknown };
		headersArrived = true;
		const headers = raw.headers ?? {};
		if (raw.statusCode >= 300 && raw.statusCode < 400) {
			discard(raw.body);
			failure = new RedirectRefused(raw.statusCode, redirectTarget(headers.location, options.url));
		} else {
			const body = await readBody(raw.body, {
				statusCode: raw.statusCode,
				headers,
				maxBytes: limits.maxBytes,
				signal: ends.signal,
			});
			return { statusCode: raw.statusCode, headers, body };
		}
	} catch (error) {
		failure = error;
	} finally {
		for (const signal of [limits.signal, deadline]) signal?.removeEventListener('abort', end);
	}
	if (deadline.aborted && !limits.signal?.aborted)
		failure = new ResponseDeadline(limits.timeoutMs, headersArrived);
	return await Promise.reject(failure);
}

interface Readable {
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
}

function isStream(body: unknown): body is Readable {
	return (
		body !== null &&
		typeof body === 'object' &&
		typeof (body as Readable).on === 'function' &&
		typeof (body as Readable).destroy === 'function'
	);
}

function discard(body: unknown): void {
	if (isStream(body)) {
		body.on('error', () => {});
		body.destroy();
	}
}

/** Bytes of a body that is not a stream (a helper that buffered it, as n8n's test doubles do). */
function bytesOf(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (body === undefined || body === null) return Buffer.alloc(0);
	return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The whole body, or ResponseTooLarge as soon as it passes `maxBytes` (a declared Content-Length above it: at once). */
async function readBody(
	body: unknown,
	answer: { statusCode: number; headers: IDataObject; maxBytes: number; signal: AbortSignal },
): Promise<Buffer> {
	const { statusCode, headers, maxBytes, signal } = answer;
	const declared = Number(headers['content-length']);
	// Compressed bodies are counted as they are unpacked.
	if (!headers['content-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
		discard(body);
		throw new ResponseTooLarge(statusCode, maxBytes);
	}
	if (!isStream(body)) {
		const bytes = bytesOf(body);
		if (bytes.length > maxBytes) throw new ResponseTooLarge(statusCode, maxBytes);
		return bytes;
	}
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const finish = (error?: Error) => {
			if (settled) return;
			settled = true;
			signal.removeEventListener('abort', onAbort);
			if (error) {
				discard(body);
				reject(error);
			} else resolve(Buffer.concat(chunks, size));
		};
		const onAbort = () => finish(new Error('The request was aborted while its answer arrived'));
		body.on('data', (chunk: unknown) => {
			const bytes = bytesOf(chunk);
			size += bytes.length;
			if (size > maxBytes) finish(new ResponseTooLarge(statusCode, maxBytes));
			else chunks.push(bytes);
		});
		body.on('end', () => finish());
		body.on('error', (error: unknown) =>
			finish(error instanceof Error ? error : new Error(String(error))),
		);
		body.on('close', () =>
			finish(
				Object.assign(new Error('The connection closed before the answer was complete'), {
					code: 'ECONNRESET',
				}),
			),
		);
		signal.addEventListener('abort', onAbort, { once: true });
		if (signal.aborted) onAbort();
	});
}

import { payloadOf, reportsError, valueAt } from '../responses/envelope';
import { isObject, present } from '../responses/json';
import type { ApiResponse, ResponseExpectation } from './request-types';

/**
 * Whether a 2xx answer is what the operation's table entry `expects`, read through the one answer
 * reader (envelope.ts), so an expectation names each value once whatever the API's generation.
 */

export type ResponseCheck =
	| { trusted: true; body: unknown }
	/** `body`: what arrived, JSON parsed when it was JSON, else its text. */
	| { trusted: false; expected: string; arrived: string; body: unknown };

/** The media type of an answer, without parameters: `application/json`. */
export function contentTypeOf(headers: ApiResponse['headers']): string {
	return String(headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
}

/**
 * The body of an answer received as bytes (`answerAsBytes`): JSON parsed (or its text when it is
 * not valid JSON), any text as text, anything else (a PDF, an image) kept as bytes.
 */
export function decodeBytes(body: unknown, contentType: string): unknown {
	if (!Buffer.isBuffer(body)) return body;
	if (/json/i.test(contentType)) return jsonOrText(body.toString('utf8'));
	return /^text\//i.test(contentType) || body.length === 0 ? body.toString('utf8') : body;
}

/**
 * The body of any other answer, as n8n's helper (axios) gave it before: JSON parsed whatever the
 * content type says, else the text ('' when empty).
 */
export function decodeText(body: Buffer): unknown {
	const text = body.toString('utf8').replace(/^\uFEFF/, '');
	return text === '' ? text : jsonOrText(text);
}

/** The text parsed as JSON, or the text itself when it is none. */
function jsonOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function expectedOf(expects: ResponseExpectation): string {
	if (expects.oneOf?.length) return `a JSON object with ${expects.oneOf.join(' or ')}`;
	if (expects.allOf?.length) return `a JSON object with ${expects.allOf.join(' and ')}`;
	if (expects.result) return 'a result (a non-empty JSON object without an error)';
	if (expects.body === 'nothing') return 'empty or a JSON object';
	if (expects.body === 'jsonOrFile') return 'a JSON object or a file';
	return 'JSON';
}

/** A payload that says something beyond the envelope's own `status: true`. */
function holdsResult(body: unknown): boolean {
	const payload = payloadOf(body);
	const said = Object.entries(payload ?? {}).filter(
		([key, value]) => !(key === 'status' && typeof value === 'boolean'),
	);
	return said.length > 0 && !reportsError(body);
}

/**
 * The trusted body (a file as bytes, an empty answer as ''), or what was expected and what arrived.
 * The body comes decoded (decodeText, decodeBytes): JSON is parsed once, before this check.
 */
export function checkResponse(
	response: ApiResponse,
	expects: ResponseExpectation = {},
): ResponseCheck {
	const contentType = contentTypeOf(response.headers);
	let body = response.body;
	if (Buffer.isBuffer(body)) {
		const file = expects.body === 'jsonOrFile' && body.length > 0 && !/html/i.test(contentType);
		if (file) return { trusted: true, body };
		// Bytes that are not a file: described by their text.
		body = body.toString('utf8');
	}
	const empty =
		body === undefined || body === null || (typeof body === 'string' && body.trim() === '');
	let ok =
		expects.body === 'nothing'
			? (empty && body !== null) || isObject(body)
			: expects.body === 'jsonOrFile'
				? isObject(body)
				: body !== null && typeof body === 'object';
	if (ok && expects.oneOf?.length) ok = expects.oneOf.some((path) => present(valueAt(body, path)));
	if (ok && expects.allOf?.length) ok = expects.allOf.every((path) => present(valueAt(body, path)));
	if (ok && expects.result) ok = holdsResult(body);
	if (ok) return { trusted: true, body: empty ? '' : body };
	const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
	return {
		trusted: false,
		expected: expectedOf(expects),
		arrived: describeBody(contentType, text),
		body,
	};
}

/** What a 2xx answer that is not the expected JSON looked like: its content type and first characters. */
export function describeBody(contentType: string, text: string): string {
	const type = contentType || 'no content type';
	if (text.trim() === '') return `an empty body (${type})`;
	const start = text.trim().replace(/\s+/g, ' ').slice(0, 80);
	return `${type}, starting "${start}"${text.trim().length > 80 ? '...' : ''}`;
}

import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/**
 * The request path's own types: what it is asked to send, what it answers, and how an answer is
 * judged and a refusal explained. The operation tables use them (operation-types.ts); the request path
 * knows nothing of operations or fields.
 */

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
	/**
	 * When the sending that got this answer left (after any wait for the quota) and when its answer
	 * arrived, in ms since the epoch; an answer given again from memory keeps its first times.
	 */
	sentAtMs?: number;
	answeredAtMs?: number;
}

/**
 * A value of an answer by its dotted path, named once and generation-neutral (envelope.ts `valueAt`):
 * `referenceId` finds `data.referenceId`, `referenceId` and `reference_id`; `status.code` finds it
 * inside or outside the `{ status: true, data }` envelope.
 */
export type ResponsePath = string;

/**
 * What a 2xx answer must be for the operation to trust it; anything else (an HTML page, invalid
 * JSON, an empty body, `null`, `{}` where a result is due) is an error that says what arrived, never
 * an empty or negative result.
 * - `body: 'json'` (the default): a JSON object or array; `'nothing'`: documented as "200 with no
 *   body", so an empty answer or any JSON object; `'jsonOrFile'`: a JSON object, or a file (any other
 *   content type but HTML, not empty), kept as its bytes;
 * - `oneOf`: at least one of these paths holds a value (not undefined, null or '');
 * - `allOf`: every one of them does;
 * - `result`: the payload is a non-empty JSON object that reports no error (`error`, `status: false`):
 *   for an answer whose shape differs by generation, so that no one member can be named.
 */
export interface ResponseExpectation {
	body?: 'json' | 'nothing' | 'jsonOrFile';
	oneOf?: ResponsePath[];
	allOf?: ResponsePath[];
	result?: boolean;
}

/**
 * What to do when the API refuses the request, in the words of someone using the node: by HTTP
 * status, and `notFound` for a 404 or a 4xx whose message says "not found". `{field}` is replaced by
 * the item's value of that field (never a secret field). These replace the general hints of errors.ts.
 */
export type ErrorHints = Partial<Record<number | 'notFound', string>>;

/** A request an operation wants sent; the base URL, token, pacing and retries are added later. */
export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	/** The answer may be a file (`expects.body: 'jsonOrFile'`): it is received as bytes, not parsed as JSON. */
	answerAsBytes?: boolean;
}

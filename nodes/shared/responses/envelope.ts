import type { IDataObject } from 'n8n-workflow';

import { isObject, present } from './json';

/**
 * A value of an answer by its dotted path, named once and generation-neutral (`valueAt`):
 * `referenceId` finds `data.referenceId`, `referenceId` and `reference_id`; `status.code` finds it
 * inside or outside the `{ status: true, data }` envelope.
 */
export type ResponsePath = string;

/**
 * The one reader of the API's answers across its generations: the newest wraps every answer as
 * `{ status: true, data: {...} }`, older ones answer un-enveloped, and some spell a member in
 * snake_case (`reference_id`) where others use camelCase (`referenceId`). An operation table names a
 * value once, generation-neutral (`referenceId`, `status.code`), and everything that reads an answer
 * (`expects`, `receipt`, conveniences, tool summaries) reads it through `valueAt`. The output itself
 * always keeps the answer as it arrived.
 */

/** The answer's payload: the envelope's `data` object when there is one, else the body itself. */
export function payloadOf(body: unknown): IDataObject | undefined {
	if (!isObject(body)) return undefined;
	return isObject(body.data) ? body.data : body;
}

/** `referenceId` -> `reference_id`. */
function snakeCase(name: string): string {
	return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A member by its camelCase name or its snake_case twin (camelCase wins when both are there). */
export function member(object: unknown, name: string): unknown {
	if (!isObject(object)) return undefined;
	if (object[name] !== undefined) return object[name];
	return object[snakeCase(name)];
}

/** A dotted path (`status.code`) read member by member, each with its snake_case twin. */
function at(object: unknown, path: string): unknown {
	let current: unknown = object;
	for (const name of path.split('.')) {
		current = member(current, name);
		if (current === undefined) return undefined;
	}
	return current;
}

/**
 * A value of the answer by its generation-neutral path: first inside the envelope's `data`, then at
 * the top level (an older generation, or a member the envelope keeps beside `data`, such as KYB's
 * `status: "success"`). `referenceId` finds `data.referenceId`, `referenceId` and `reference_id`.
 */
export function valueAt(body: unknown, path: ResponsePath): unknown {
	const payload = payloadOf(body);
	const inside = at(payload, path);
	if (present(inside) || payload === body) return inside;
	const outside = at(body, path);
	return present(outside) ? outside : inside;
}

/**
 * Whether a 2xx answer reports a failure instead of a result: an `error` that says something (a
 * text, `true`, an object) or the envelope's `status: false`. `error: false` (the older KYB
 * envelope) is no failure.
 */
export function reportsError(body: unknown): boolean {
	if (!isObject(body)) return false;
	const error = valueAt(body, 'error');
	const failed =
		error === true || (typeof error === 'string' && error.trim() !== '') || isObject(error);
	return failed || body.status === false;
}

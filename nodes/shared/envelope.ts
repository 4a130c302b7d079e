import type { IDataObject } from 'n8n-workflow';

import { isObject } from './json';

/**
 * The one reader of the API's answer shapes across its generations: the newest wraps every answer
 * as `{ status: true, data: {...} }`, older ones answer un-enveloped, and some answers spell a member
 * in snake_case (`reference_id`) where others use camelCase (`referenceId`). Operations read derived
 * values through here; the output itself always keeps the answer as it arrived.
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
 * A value of the answer by its dotted path: first inside the envelope's `data`, then at the top
 * level (an older generation, or a member the envelope keeps outside `data`).
 */
export function readAnswer(body: unknown, path: string): unknown {
	const payload = payloadOf(body);
	const inside = at(payload, path);
	return inside !== undefined || payload === body ? inside : at(body, path);
}

import type { IDataObject } from 'n8n-workflow';

import { FieldError } from '../fields/field-error';
import { SentLater } from '../fields/sent-later';
import { isObject } from '../responses/json';
import type { ApiRequest, FieldValues, OperationDefinition } from './operation-types';

/**
 * The request of one item from its values: `{name}` placeholders of the path (URL-encoded), the
 * query, and the body (under `sendAs`, inside `nest`); an answer that may be a file is asked for as
 * bytes. Runs while the items are validated, so a bad path id is refused before anything is sent.
 */
export function buildRequest(op: OperationDefinition, values: FieldValues): ApiRequest {
	const body: IDataObject = {};
	const qs: IDataObject = {};
	for (const field of op.fields) {
		// Notices and other fields without a rule carry no value.
		if (!field.rule) continue;
		const { name } = field.property;
		const value = values[name];
		if (value === undefined) continue;
		const location = field.location ?? 'body';
		if (location === 'query') qs[name] = value as IDataObject[string];
		if (location !== 'body') continue;
		const sendAs = typeof field.sendAs === 'function' ? field.sendAs(values) : field.sendAs;
		nestedIn(body, field.nest)[sendAs ?? name] = value as IDataObject[string];
	}
	return {
		method: op.method,
		path: fillPath(op.path, values),
		...(op.method === 'GET' ? {} : { body }),
		...(Object.keys(qs).length ? { qs } : {}),
		...(op.expects?.body === 'jsonOrFile' ? { answerAsBytes: true } : {}),
	};
}

/**
 * The object a field is sent inside: `addons.ageVerify` is `body.addons.ageVerify`, created when
 * missing. Each level is copied, so an object another field sent (a rule's result) is never changed.
 */
function nestedIn(body: IDataObject, nest: string | undefined): IDataObject {
	let target = body;
	for (const key of nest ? nest.split('.') : []) {
		const inner: IDataObject = isObject(target[key]) ? { ...(target[key] as IDataObject) } : {};
		target[key] = inner;
		target = inner;
	}
	return target;
}

/**
 * Fills `{name}` placeholders. A value of ".", ".." or nothing would leave its path segment and send
 * the request, and the token, to another endpoint: refused, naming the field.
 */
export function fillPath(path: string, values: FieldValues): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const text = String(values[name] ?? '').trim();
		if (text === '' || text === '.' || text === '..') {
			throw new FieldError(name, `${name} must be an id, not empty, "." or "..", got "${text}"`);
		}
		return encodeURIComponent(text);
	});
}

/** The request with every value sent later read now: call it only while sending that item. */
export async function withContent(request: ApiRequest): Promise<ApiRequest> {
	const later = Object.entries(request.body ?? {}).filter(
		([, value]) => value instanceof SentLater,
	);
	if (!later.length) return request;
	const body = { ...request.body };
	for (const [key, value] of later)
		body[key] = (await (value as SentLater).load()) as IDataObject[string];
	return { ...request, body };
}

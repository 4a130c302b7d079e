import type { IDataObject } from 'n8n-workflow';

import { member } from '../../shared/responses/envelope';
import { isObject } from '../../shared/responses/json';
import { pick } from '../../shared/responses/pick';

/** Nesting a company record is read to; a record is a few levels deep in every generation. */
const MAX_DEPTH = 8;

/**
 * Every linkToken a company record carries (documents, transparency-register entries), wherever the
 * API's generation put the package: beside the company or inside it. Each with the package it came
 * from and the entry's name and type, so a Split Out can feed Retrieve Document one token per item.
 */
export function linkTokensOf(body: unknown): IDataObject[] {
	const found: IDataObject[] = [];
	const visit = (value: unknown, key: string, depth: number) => {
		if (depth > MAX_DEPTH) return;
		if (Array.isArray(value)) {
			for (const entry of value) visit(entry, key, depth + 1);
			return;
		}
		if (!isObject(value)) return;
		const token = member(value, 'linkToken');
		if (typeof token === 'string' && token !== '') {
			found.push({
				linkToken: token,
				package: key,
				...pick(value, ['documentId', 'name', 'type', 'format', 'date']),
			});
		}
		for (const [name, inner] of Object.entries(value)) visit(inner, name, depth + 1);
	};
	visit(body, '', 0);
	return found;
}

import type { IExecuteFunctions } from 'n8n-workflow';

import {
	type ApiCredentials,
	CREDENTIAL_TYPE,
	readNodeCredentials,
} from '../transport/credential-values';
import { credentialKey } from '../transport/token-cache';

/**
 * The item's account: the credential as n8n resolves it for this item, as its own HTTP Request node
 * reads it. A credential whose fields are expressions (`{{ $json.account.apiKey }}`) may give each
 * item another account; a refused base URL or an empty key fails this item only.
 */
export async function itemCredentials(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<ApiCredentials> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return readNodeCredentials(ctx.getNode(), data, itemIndex);
}

/**
 * The entries grouped by account (base URL, API key, customer ID), each group in input order, the
 * groups in the order of their first entry.
 */
export function byAccount<T extends { credentials: ApiCredentials }>(entries: T[]): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = credentialKey(entry.credentials);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	return [...groups.values()];
}

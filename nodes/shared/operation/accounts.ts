import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import {
	type ApiCredentials,
	API_CREDENTIAL_TYPE,
	readNodeCredentials,
} from '../transport/credential-values';
import { credentialKey } from '../transport/token-cache';

/**
 * Reads each item's account for one run: the credential as n8n resolves it for the item, as its own
 * HTTP Request node reads it. A credential whose fields are expressions (`{{ $json.account.apiKey }}`)
 * may give each item another account; a refused base URL or an empty value fails that item only.
 *
 * n8n reads the stored credential, decrypts it and evaluates its expressions on every call, which
 * for every item would cost a run more than checking its parameters. So the first item's reading is
 * compared with the credential as n8n resolves it for no item (an index past the last): a credential
 * that reads the item (`$json`, `$input.item`, `$('Node').item`) cannot resolve there, or resolves
 * otherwise, and is then read for every item; one that agrees does not depend on the items, and
 * every item shares that first reading.
 */
export class ItemAccounts {
	/** The first item's reading, and whether every item shares it: started at once, while the items' parameters are checked. */
	private readonly first: Promise<{ data?: ICredentialDataDecryptedObject; shared: boolean }>;

	/** The account every item shares, once read through the rules; undefined until then or when none. */
	private sharedAccount: ApiCredentials | undefined;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.first = this.firstReading();
	}

	/** The item's account; its error (a NodeOperationError naming the item) when a rule refuses it. */
	async get(itemIndex: number): Promise<ApiCredentials> {
		const first = await this.first;
		if (first.shared && this.sharedAccount) return this.sharedAccount;
		const data =
			first.data && (first.shared || itemIndex === 0) ? first.data : await this.read(itemIndex);
		const account = readNodeCredentials(this.ctx.getNode(), data, itemIndex);
		if (first.shared) this.sharedAccount = account;
		return account;
	}

	private async read(itemIndex: number): Promise<ICredentialDataDecryptedObject> {
		return await this.ctx.getCredentials(API_CREDENTIAL_TYPE, itemIndex);
	}

	/** Item 0's reading, beside the reading for no item (an index past the last). */
	private async firstReading() {
		const noItem = this.ctx.getInputData().length;
		const [first, unbound] = await Promise.allSettled([this.read(0), this.read(noItem)]);
		if (first.status === 'rejected') return { shared: false };
		const shared = unbound.status === 'fulfilled' && sameData(first.value, unbound.value);
		return { data: first.value, shared };
	}
}

function sameData(a: ICredentialDataDecryptedObject, b: ICredentialDataDecryptedObject): boolean {
	const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
	return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/**
 * The entries grouped by account (base URL, API key, customer ID), each group in input order, the
 * groups in the order of their first entry.
 */
export function byAccount<T extends { credentials: ApiCredentials }>(entries: T[]): T[][] {
	const groups = new Map<string, T[]>();
	const keys = new Map<ApiCredentials, string>();
	for (const entry of entries) {
		const key = keys.get(entry.credentials) ?? credentialKey(entry.credentials);
		keys.set(entry.credentials, key);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	return [...groups.values()];
}

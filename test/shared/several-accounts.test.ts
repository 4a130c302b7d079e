/**
 * A credential whose fields are expressions, resolved per item (CONVENTIONS "Accounts"): every item is
 * sent under its own account, with that account's token, pacer and refused-key memory, and a broken
 * account fails only its items. In real n8n 2.x and 1.x, with 1,000 items and the HTTP Request node:
 * test/e2e/several-accounts.e2e.test.js.
 */
import { createHash } from 'crypto';

import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { pacerCount, pacerFor } from '../../nodes/shared/transport/pacing';
import { credentialKey, tokenCacheSize } from '../../nodes/shared/transport/token-cache';
import { HarnessCredentialsHelper } from '../helpers/harness-context';
import { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, VALID_DEPOSIT, actionNode, errorItemIndex, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const CHECK = 'POST /aml/checkIndividual';

const ACCOUNTS = {
	sandbox: { apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID },
	north: { apiKey: 'north-key-7f3a', customerId: 'north-customer-19c2' },
	south: { apiKey: 'south-key-2b8e', customerId: 'south-customer-55d0' },
};
type Name = keyof typeof ACCOUNTS;
const SECRETS = Object.values(ACCOUNTS).flatMap((a) => [a.apiKey, a.customerId]);

/** The credential as a platform writes it: every account value from the item. */
const PER_ITEM = { apiKey: '={{ $json.account.apiKey }}', customerId: '={{ $json.account.customerId }}', sandboxBaseUrl: '={{ $json.account.baseUrl }}' };

beforeEach(async () => {
	const accounts = (['north', 'south'] as const).map((name) => ({ name, ...ACCOUNTS[name] }));
	await emulator().configure({ accounts });
});

/** Items named after their account, the accounts taking turns; `change` alters an account's values. */
function customers(count: number, change: Partial<Record<Name, IDataObject>> = {}): IDataObject[] {
	const names = Object.keys(ACCOUNTS) as Name[];
	return Array.from({ length: count }, (_, i) => {
		const name = names[i % names.length];
		return { name: `${name} customer ${i}`, dob: '1980-01-01', account: { ...ACCOUNTS[name], baseUrl: emulator().baseUrl, ...change[name] } };
	});
}

const screen = async (json: IDataObject[], options: { continueOnFail?: boolean } = {}) =>
	await emulator().run(actionNode, { resource: 'aml', operation: 'checkIndividual', name: '={{ $json.name }}', dob: '={{ $json.dob }}' }, { credentials: PER_ITEM, json, ...options });

/** Which account the emulator saw each screening under, by the customer's name. */
async function accountsSeen(): Promise<Array<[string, string | null]>> {
	const requests = (await emulator().requests(CHECK)) as unknown as Array<{ body: IDataObject; account: string | null }>;
	return requests.map((r) => [String(r.body.name), r.account]);
}

const keyOf = (name: Name) => credentialKey({ environment: 'sandbox', baseUrl: emulator().baseUrl, accessToken: '', ...ACCOUNTS[name] });

describe('several accounts in one run: a credential whose fields are expressions', () => {
	it('sends every item under its own account: one token exchange per account, evidence tells the accounts apart without revealing them', async () => {
		const run = await screen(customers(30));
		expect(run.error).toBeUndefined();
		const seen = await accountsSeen();
		expect(seen).toHaveLength(30);
		for (const [customer, account] of seen) expect([customer, account]).toEqual([customer, customer.split(' ')[0]]);
		const auth = (await emulator().requests('POST /auth')) as unknown as Array<{ account: string }>;
		expect(auth.map((a) => a.account).sort()).toEqual(['north', 'sandbox', 'south']);

		const fingerprint = (name: Name) => createHash('sha256').update(`${emulator().baseUrl}\n${ACCOUNTS[name].customerId}`).digest('hex').slice(0, 16);
		expect(run.items.map((item) => item.pairedItem)).toEqual(customers(30).map((_, item) => ({ item })));
		expect(run.evidence.map((e) => e!.account)).toEqual(customers(30).map((c) => fingerprint(String(c.name).split(' ')[0] as Name)));
		expect(new Set(run.evidence.map((e) => e!.account)).size).toBe(3);
		const output = JSON.stringify(run.outputs);
		for (const secret of SECRETS) expect(output).not.toContain(secret);
	});

	it('reads a credential that does not depend on the items twice per run, however many items; one that reads the item, once per item', async () => {
		const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		try {
			const run = await emulator().run(actionNode, { resource: 'aml', operation: 'checkIndividual', name: '={{ $json.name }}' }, { json: customers(50) });
			expect(run.error).toBeUndefined();
			expect(reads).toHaveBeenCalledTimes(2);
			reads.mockClear();
			expect((await screen(customers(50))).error).toBeUndefined();
			expect(reads).toHaveBeenCalledTimes(2 + 49);
		} finally {
			reads.mockRestore();
		}
	});

	it("a default for items that name no account (`$json.account?.apiKey ?? ...`): the first item's account is not taken for the others", async () => {
		const fallback = { apiKey: `={{ $json.account?.apiKey ?? '${SANDBOX_API_KEY}' }}`, customerId: `={{ $json.account?.customerId ?? '${SANDBOX_CUSTOMER_ID}' }}` };
		const [first, ...others] = customers(7);
		const json = [{ ...first, account: undefined }, ...others];
		const run = await emulator().run(actionNode, { resource: 'aml', operation: 'checkIndividual', name: '={{ $json.name }}' }, { credentials: fallback, json });
		expect(run.error).toBeUndefined();
		for (const [customer, account] of await accountsSeen()) expect([customer, account]).toEqual([customer, customer.split(' ')[0]]);
	});

	it("keeps each account's token, pacer and refused-key memory apart: a 429 slows only its account, a wrong key is asked once", async () => {
		await emulator().configure({ failures: [{ route: CHECK, status: 429, retryAfter: 0, when: { name: 'north customer 1' } }] });
		const wrongSouth = customers(12, { south: { apiKey: 'south-key-wrong' } });
		const run = await screen(wrongSouth, { continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(tokenCacheSize()).toBe(3);
		expect(pacerCount()).toBe(3);
		expect([pacerFor(keyOf('north')).rateLimits, pacerFor(keyOf('sandbox')).rateLimits]).toEqual([1, 0]);
		// The four south items waited for one exchange, then for the refusal it left in memory.
		expect(await emulator().count('POST /auth')).toBe(3);
		const again = await screen(wrongSouth, { continueOnFail: true });
		expect(again.items.filter((i) => i.json.error)).toHaveLength(4);
		expect(await emulator().count('POST /auth')).toBe(3);
	});

	it("a wrong key fails only its account's items: error items name the item, never the key or the customer ID; the others answer, in order, paired", async () => {
		const input = customers(9, { north: { apiKey: 'north-key-wrong' } });
		const run = await screen(input, { continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		const failed = run.items.flatMap((item, i) => (item.json.error ? [i] : []));
		expect(failed).toEqual([1, 4, 7]);
		expect(run.items[1].json.error).toMatch(/rejected the API key or the customer ID \(HTTP 401\)/);
		expect(run.items[0].json.matchStatus ?? run.items[0].json.screeningSummary).toBeDefined();
		expect(JSON.stringify(run.items)).not.toMatch(new RegExp(['north-key-wrong', ...SECRETS].join('|')));
		expect((await accountsSeen()).map(([, account]) => account)).not.toContain('north');
	});

	it('a wrong key without Continue On Fail stops the node with that error', async () => {
		const run = await screen(customers(6, { south: { apiKey: 'south-key-wrong' } }));
		const error = run.error as NodeApiError;
		expect(error.message).toMatch(/rejected the API key or the customer ID \(HTTP 401\)/);
		expect(errorItemIndex(error)).toBe(2);
		for (const secret of ['south-key-wrong', ...SECRETS]) expect(`${error.message} ${error.description}`).not.toContain(secret);
	});

	it.each([
		['a refused base URL', { baseUrl: 'http://verification.example/api/services' }, /Sandbox Base URL must use https:\/\/ for verification\.example/],
		['an empty customer ID', { customerId: '' }, /The credential's Customer ID is empty for item 2/],
	])('%s fails its items before anything is sent: without Continue On Fail nothing goes out, with it only that account waits', async (_, change, words) => {
		const stopped = await screen(customers(6, { north: change }));
		expect((stopped.error as NodeOperationError).message).toMatch(words);
		expect(errorItemIndex(stopped.error)).toBe(1);
		expect((stopped.error as NodeOperationError).description).toMatch(/^Nothing was sent/);
		expect((await emulator().stats()).total).toBe(0);

		const run = await screen(customers(6, { north: change }), { continueOnFail: true });
		expect(run.items.map((i) => Boolean(i.json.error))).toEqual([false, true, false, false, true, false]);
		expect((await accountsSeen()).map(([, account]) => account).sort()).toEqual(['sandbox', 'sandbox', 'south', 'south']);
	});

	it('a deposit is never sent twice under Retry On Fail, per account: each account pays once per item', async () => {
		await emulator().configure({ failures: [{ route: 'POST /payments/challenge-deposit', status: 500, when: { description: 'deposit-1' } }] });
		const json = customers(4).map((c, i) => ({ ...c, ref: `deposit-${i}` }));
		const retry = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
		const run = await emulator().run(actionNode, { resource: 'payments', ...VALID_DEPOSIT, description: '={{ $json.ref }}', options: { maxRetries: 0 } } as never, { credentials: PER_ITEM, json, retry });
		expect(run.error!.message).toMatch(/Challenge Deposit failed for item 2/);
		const deposits = (await emulator().requests('POST /payments/challenge-deposit')) as unknown as Array<{ body: IDataObject; account: string }>;
		const perItem = deposits.map((d) => `${String(d.body.description)} ${d.account}`).sort();
		expect(perItem).toEqual(['deposit-0 sandbox', 'deposit-1 north', 'deposit-2 south', 'deposit-3 sandbox']);
	});
});

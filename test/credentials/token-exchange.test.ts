/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import { SANDBOX_CUSTOMER_ID, actionNode, useSandbox } from '../helpers/sandbox';

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { name: `Person ${i}` } }));
const checkIndividual = { resource: 'aml', operation: 'checkIndividual', name: '={{ $json.name }}', options: { maxConcurrentRequests: 50 } };

describe('credential: token exchange', () => {
	const sandbox = useSandbox();

	it('exchanges once for 200 concurrent items from a cold start, with the documented request', async () => {
		const result = await sandbox().run(actionNode, checkIndividual, { input: people(200) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(200);
		expect(await sandbox().count('POST /auth')).toBe(1);
		expect(await sandbox().count('POST /aml/checkIndividual')).toBe(200);
		const [auth] = await sandbox().requests('POST /auth');
		expect(auth.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
		expect(auth.headers['api-key']).toBe('[redacted]');
		expect(auth.headers['customer-id']).toBe('[redacted]');
		const [check] = await sandbox().requests('POST /aml/checkIndividual');
		expect(check.headers.authorization).toBe('[redacted]');
	});

	it('fails clearly on a wrong key, without leaking it', async () => {
		const wrongKey = '00000000-dead-beef-0000-000000000000';
		const result = await sandbox().run(actionNode, checkIndividual, { input: people(3), credentials: { apiKey: wrongKey } });
		expect(result.error?.message).toMatch(/rejected the API key or the customer ID \(HTTP 401\)/);
		const everything = JSON.stringify({ error: result.error, items: result.items });
		expect(everything).not.toContain(wrongKey);
		expect(everything).not.toContain(SANDBOX_CUSTOMER_ID);
		expect(await sandbox().count('POST /aml/checkIndividual')).toBe(0);
	});

	it('1,000 items against a wrong key with Continue On Fail: at most 2 exchanges, the credential error on every item', async () => {
		const result = await sandbox().run(actionNode, checkIndividual, { input: people(1000), continueOnFail: true, credentials: { apiKey: '00000000-dead-beef-0000-000000000000' } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1000);
		expect(result.items.every((item, i) => /rejected the API key or the customer ID \(HTTP 401\)/.test(String(item.json.error)) && (item.pairedItem as { item: number }).item === i)).toBe(true);
		expect(await sandbox().count('POST /auth')).toBeLessThanOrEqual(2);
		expect(await sandbox().count('POST /aml/checkIndividual')).toBe(0);
	});
});

import { VerificationAml } from '../../nodes/Aml/VerificationAml.node';
import { runNode } from '../helpers/n8n';
import { type Sandbox, SANDBOX_CUSTOMER_ID, startSandbox } from '../helpers/sandbox';

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { name: `Person ${i}` } }));
const checkIndividual = { operation: 'checkIndividual', name: '={{ $json.name }}', options: { maxConcurrentRequests: 50 } };

describe('credential: token exchange', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());
	beforeEach(async () => await sandbox.reset());

	it('exchanges once for 200 concurrent items from a cold start, with the documented request', async () => {
		const result = await runNode({
			node: new VerificationAml(),
			parameters: checkIndividual,
			credentials: { verificationServicesApi: { ...sandbox.credentials } },
			credentialTypes: sandbox.credentialTypes,
			input: people(200),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(200);
		expect(await sandbox.count('POST /auth')).toBe(1);
		expect(await sandbox.count('POST /aml/checkIndividual')).toBe(200);
		const [auth] = await sandbox.requests('POST /auth');
		expect(auth.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
		expect(auth.headers['api-key']).toBe('[redacted]');
		expect(auth.headers['customer-id']).toBe('[redacted]');
		const [check] = await sandbox.requests('POST /aml/checkIndividual');
		expect(check.headers.authorization).toBe('[redacted]');
	});

	it('replaces an expiring token before use: one more exchange and no 401 after expiry', async () => {
		// Long enough for one run of 200 items on a loaded machine (the token is replaced 1.5 s before it
		// expires), short enough for the test to wait it out.
		await sandbox.configure({ tokenLifetimeSeconds: 15 });
		const run = async () =>
			await runNode({
				node: new VerificationAml(),
				parameters: checkIndividual,
				credentials: { verificationServicesApi: { ...sandbox.credentials } },
				credentialTypes: sandbox.credentialTypes,
				input: people(200),
			});
		expect((await run()).error).toBeUndefined();
		expect(await sandbox.count('POST /auth')).toBe(1);
		await new Promise((r) => setTimeout(r, 15100));
		const second = await run();
		expect(second.error).toBeUndefined();
		expect(second.items).toHaveLength(200);
		expect(await sandbox.count('POST /auth')).toBe(2);
		expect((await sandbox.stats()).status['401'] ?? 0).toBe(0);
	}, 120_000);

	it('uses a valid token stored with the credential without exchanging', async () => {
		const first = await runNode({
			node: new VerificationAml(),
			parameters: checkIndividual,
			credentials: { verificationServicesApi: { ...sandbox.credentials } },
			credentialTypes: sandbox.credentialTypes,
			input: people(1),
		});
		const stored = String(first.credentialUpdates.at(-1)?.data.accessToken);
		expect(stored).toMatch(/^ey/);
		await sandbox.reset(); // forgets the process cache and the emulator's counters, not the token's validity
		const second = await runNode({
			node: new VerificationAml(),
			parameters: checkIndividual,
			credentials: { verificationServicesApi: { ...sandbox.credentials, accessToken: stored } },
			credentialTypes: sandbox.credentialTypes,
			input: people(20),
		});
		expect(second.error).toBeUndefined();
		expect(await sandbox.count('POST /auth')).toBe(0);
	});

	it('recovers from a token the API refuses with one exchange, whatever the number of items', async () => {
		const refused = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjk5OTk5OTk5OTksImlhdCI6MX0.bad-signature';
		const result = await runNode({
			node: new VerificationAml(),
			parameters: checkIndividual,
			credentials: { verificationServicesApi: { ...sandbox.credentials, accessToken: refused } },
			credentialTypes: sandbox.credentialTypes,
			input: people(50),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(50);
		expect(await sandbox.count('POST /auth')).toBe(1);
	});

	it('fails clearly on a wrong key, without leaking it', async () => {
		const wrongKey = '00000000-dead-beef-0000-000000000000';
		const result = await runNode({
			node: new VerificationAml(),
			parameters: checkIndividual,
			credentials: { verificationServicesApi: { ...sandbox.credentials, apiKey: wrongKey } },
			credentialTypes: sandbox.credentialTypes,
			input: people(3),
		});
		expect(result.error?.message).toMatch(/rejected the API key or the customer ID \(HTTP 401\)/);
		const everything = JSON.stringify({ error: result.error, items: result.items, updates: result.credentialUpdates });
		expect(everything).not.toContain(wrongKey);
		expect(everything).not.toContain(SANDBOX_CUSTOMER_ID);
		expect(await sandbox.count('POST /aml/checkIndividual')).toBe(0);
	});
});

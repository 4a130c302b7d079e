import { runCredentialTest } from '../helpers/n8n';
import { type Sandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, startSandbox } from '../helpers/sandbox';

/**
 * The editor's "Test" / "Retry" button, as n8n's CredentialsTester runs it. A new credential has no
 * stored token; an existing one has the token of its last exchange, and n8n then skips
 * preAuthentication during a test (see the credential's `test`): both must judge the key shown.
 */
describe('credential: test button', () => {
	let sandbox: Sandbox;
	let storedToken: string;
	beforeAll(async () => {
		sandbox = await startSandbox();
		const first = await runCredentialTest({ credentialType: sandbox.credentialTypes[0], data: { ...sandbox.credentials } });
		storedToken = String(first.credentialUpdates.at(-1)?.data.accessToken ?? '');
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => await sandbox.reset());

	const states = {
		new: () => ({ accessToken: '' }),
		existing: () => ({ accessToken: storedToken }),
	};
	const test = async (state: keyof typeof states, data: Record<string, string>) =>
		await runCredentialTest({
			credentialType: sandbox.credentialTypes[0],
			data: { ...sandbox.credentials, ...states[state](), ...data },
		});

	it('a first test stores the token it obtained (what makes a credential "existing")', () => {
		expect(storedToken).toMatch(/^ey/);
	});

	it.each(['new', 'existing'] as const)('passes for a %s credential with the right key, exchanging it', async (state) => {
		const result = await test(state, {});
		expect(result).toMatchObject({ status: 'OK' });
		expect(await sandbox.count('POST /auth')).toBeGreaterThanOrEqual(1);
		const [auth] = await sandbox.requests('POST /auth');
		expect(auth.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
	});

	it.each([
		['new', 'a wrong API key', { apiKey: '00000000-0000-4000-8000-000000000000' }],
		['existing', 'a wrong API key', { apiKey: '00000000-0000-4000-8000-000000000000' }],
		['new', 'a wrong customer ID', { customerId: '00000000-0000-4000-8000-000000000000' }],
		['existing', 'a wrong customer ID', { customerId: '00000000-0000-4000-8000-000000000000' }],
	] as const)('refuses a %s credential with %s (case 1)', async (state, _what, data) => {
		const result = await test(state, data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key or the customer ID \(HTTP 401\): check both in the credential/);
		expect(result.message).not.toContain(SANDBOX_API_KEY);
		expect(result.message).not.toContain(SANDBOX_CUSTOMER_ID);
		expect(await sandbox.count('POST /auth')).toBeGreaterThanOrEqual(1);
		// Nothing else is called with the stored token.
		expect(await sandbox.count('GET /KYB/countries')).toBe(0);
	});

	it('explains an unreachable URL on a new credential (case 2)', async () => {
		const result = await test('new', { sandboxBaseUrl: 'http://127.0.0.1:9/api/services' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Could not reach the verification API at http:\/\/127\.0\.0\.1:9\/api\/services/);
		expect(result.message).toMatch(/check the base URL/);
	});

	// n8n 2.40.7 and 1.123.81 skip preAuthentication in a test when a token is stored, and report a
	// network failure of the test request by its code alone; a declarative `test` cannot change either.
	it('refuses an unreachable URL on an existing credential with n8n\'s own network code (case 2, n8n limit)', async () => {
		const result = await test('existing', { sandboxBaseUrl: 'http://127.0.0.1:9/api/services' });
		expect(result).toEqual(expect.objectContaining({ status: 'Error', message: 'ECONNREFUSED' }));
	});

	it('explains a URL that answers but is not the API', async () => {
		const result = await test('existing', { sandboxBaseUrl: `${sandbox.url}/not-the-api` });
		expect(result.status).toBe('Error');
	});
});

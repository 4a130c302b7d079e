import { createHash } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameters,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { fetchVerification } from '../../nodes/VerificationServicesTrigger/qesStatus/enrich';
import { duplicateKey } from '../../nodes/VerificationServicesTrigger/qesStatus/ping-dedup';
import { forgetDeliveries } from '../../nodes/shared/delivery/delivery-memory';
import { secretMatches } from '../../nodes/VerificationServicesTrigger/qesStatus/ping-check';
import { withoutSecret } from '../../nodes/shared/transport/redact';
import { clearTokenCache } from '../../nodes/shared/transport/token-cache';
import type { TriggerStaticData } from '../../nodes/VerificationServicesTrigger/qesStatus/static-data';
import { VerificationServicesTrigger } from '../../nodes/VerificationServicesTrigger/VerificationServicesTrigger.node';
import { runWebhook, runWebhookMethod, started, type RunWebhookResult, type WebhookRequest } from '../helpers/n8n';
import { useSandbox } from '../helpers/sandbox';

const NODE_KEY = 'node:IDCanopy Umbrella Trigger';
const HEADER = 'X-Verification-Webhook-Secret';
const PRODUCTION_URL = 'http://localhost:5678/webhook/harness-webhook-id/webhook';
const TEST_URL = 'http://localhost:5678/webhook-test/harness-webhook-id/webhook';

const sandbox = useSandbox();

function common(options: IDataObject = {}, overrides: { credentials?: ICredentialDataDecryptedObject } = {}) {
	return {
		node: new VerificationServicesTrigger(),
		parameters: { source: 'qesStatus', options } as INodeParameters,
		credentials: { verificationServicesApi: { ...sandbox().credentials, ...overrides.credentials } },
		credentialTypes: sandbox().credentialTypes,
	};
}

/** Runs create; `secret` is the plaintext secret as the emulator stored it (the node keeps only its hash). */
async function activate(options: IDataObject = {}, extra: { isTest?: boolean; staticData?: IDataObject } = {}) {
	const result = await runWebhookMethod({
		...common(options),
		method: 'create',
		isTest: extra.isTest,
		mode: extra.isTest ? 'manual' : 'trigger',
		staticData: extra.staticData,
	});
	expect(result.error).toBeUndefined();
	expect(result.result).toBe(true);
	const header = (options.headerName as string | undefined) ?? HEADER;
	const secret = (await controlWebhook()).metadata.authHeader?.[header];
	expect(secret).toMatch(/^[0-9a-f]{64}$/);
	return { ...result, secret: secret! };
}

/** The static data and plaintext secret of the registration made before each test of a block that calls activatedBeforeEach(). */
let staticData: IDataObject;
let secret: string;
function activatedBeforeEach(): void {
	beforeEach(async () => void ({ staticData, secret } = await activate()));
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const registrationOf = (staticData: IDataObject) => (staticData[NODE_KEY] as TriggerStaticData | undefined)?.registration;

const controlWebhook = async () => (await sandbox().control.get('/webhook')).data as { id: string; url: string; metadata: { authHeader?: Record<string, string> } };

async function ping(
	staticData: IDataObject,
	request: WebhookRequest,
	options: IDataObject = {},
	mode: 'webhook' | 'manual' = 'webhook',
): Promise<RunWebhookResult> {
	return await runWebhook({ ...common(options), staticData, request, mode });
}

const withSecret = (secret: string, body: unknown, headers: Record<string, string> = {}): WebhookRequest => ({
	headers: { [HEADER]: secret, 'content-type': 'application/json', ...headers },
	body,
});

describe('QES trigger: webhook lifecycle', () => {
	it('checkExists: false before create, true after it for the same URL, false for the test URL', async () => {
		const before = await runWebhookMethod({ ...common(), method: 'checkExists' });
		expect(before.result).toBe(false);

		const created = await activate();
		const same = await runWebhookMethod({ ...common(), method: 'checkExists', staticData: created.staticData });
		expect(same.error).toBeUndefined();
		expect(same.result).toBe(true);

		const testUrl = await runWebhookMethod({
			...common(),
			method: 'checkExists',
			staticData: created.staticData,
			isTest: true,
			mode: 'manual',
		});
		expect(testUrl.webhookUrl).toBe(TEST_URL);
		expect(testUrl.result).toBe(false);

		// A changed header name means the provider must be told the new one.
		const otherHeader = await runWebhookMethod({
			...common({ headerName: 'X-Other-Secret' }),
			method: 'checkExists',
			staticData: created.staticData,
		});
		expect(otherHeader.result).toBe(false);
		expect(await sandbox().count('POST /onboarding/configureWebhook')).toBe(1);
	});

	it('"Listen for test event" registers the test URL, kept apart from the production registration', async () => {
		const test = await activate({}, { isTest: true });
		expect(registrationOf(test.staticData)).toMatchObject({ webhookUrl: TEST_URL });
		expect((await controlWebhook()).url).toBe(TEST_URL);

		const production = await runWebhookMethod({ ...common(), method: 'checkExists', staticData: test.staticData });
		expect(production.result).toBe(false);
	});

	it('a rejected API key fails activation with a clear error that holds no secret', async () => {
		const result = await runWebhookMethod({
			...common({}, { credentials: { apiKey: '00000000-0000-4000-8000-000000000000' } }),
			method: 'create',
		});
		expect(result.result).toBeUndefined();
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^Configure Webhook failed: .*rejected the API key or the customer ID \(HTTP 401\)/);
		expect((result.error as unknown as { description: string }).description).toMatch(/API key and the customer ID/);
		expect(JSON.stringify(result.error)).not.toContain('00000000-0000-4000-8000-000000000000');
		expect(registrationOf(result.staticData)).toBeUndefined();
	});

	it('a URL the API refuses (400) fails activation naming the URL and what to do', async () => {
		await sandbox().configure({
			failures: [{ route: 'POST /onboarding/configureWebhook', status: 400, body: { message: 'webhookUrl must be publicly reachable' } }],
		});
		const result = await runWebhookMethod({ ...common(), method: 'create' });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Configure Webhook failed with HTTP 400: webhookUrl must be publicly reachable');
		const { description, httpCode } = result.error as unknown as { description: string; httpCode: string };
		expect(httpCode).toBe('400');
		expect(description).toContain(PRODUCTION_URL);
		expect(description).toContain('WEBHOOK_URL');
		expect(registrationOf(result.staticData)).toBeUndefined();
	});

	it('errors are scrubbed of the secret wherever an API might echo it', () => {
		const secret = 'a'.repeat(64);
		const error = Object.assign(new Error(`refused header value ${secret}`), {
			description: `echo: ${secret}`,
			cause: { body: { metadata: { authHeader: { [HEADER]: secret } } } },
		});
		const scrubbed = withoutSecret(error, secret);
		expect(scrubbed).toBe(error);
		expect(`${scrubbed.message} ${scrubbed.stack} ${JSON.stringify(scrubbed)}`).not.toContain(secret);
		expect(scrubbed.message).toBe('refused header value [redacted]');
	});

	it('rejects a header name that is not a valid HTTP header before calling the API', async () => {
		const result = await runWebhookMethod({ ...common({ headerName: 'X Secret' }), method: 'create' });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('Secret Header Name must be a valid HTTP header name');
		expect(await sandbox().count('POST /onboarding/configureWebhook')).toBe(0);
	});
});

describe('QES trigger: secret header check', () => {
	const body = { event: 'qes.status', sessionId: 'qes-completed-001', status: 'completed' };
	activatedBeforeEach();

	it.each([
		['wrong (same length)', { [HEADER]: 'f'.repeat(64) }],
		['missing', {}],
		['shorter', { [HEADER]: 'abc' }],
		['longer', { [HEADER]: `${'0'.repeat(64)}0` }],
		['empty', { [HEADER]: '' }],
	])('a %s secret is answered 401 and starts nothing', async (_, headers: Record<string, string>) => {
		const result = await ping(staticData, { headers, body });
		expect(result.error).toBeUndefined();
		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.res).toMatchObject({ statusCode: 401, ended: true, body: { message: 'Unauthorized' } });
	});

	it('the header name matches whatever its case', async () => {
		const result = await ping(staticData, { headers: { [HEADER.toUpperCase()]: secret }, body });
		expect(started(result)).toEqual([body]);
	});

	it('without a stored registration every ping is refused', async () => {
		const result = await ping({}, { headers: { [HEADER]: secret }, body });
		expect(result.res.statusCode).toBe(401);
		expect(result.response).toEqual({ noWebhookResponse: true });
	});

	it('Verify Secret Header off lets a ping without the header through', async () => {
		const result = await ping(staticData, { headers: {}, body }, { verifySecret: false });
		expect(started(result)).toEqual([body]);
	});

	it('Include Headers outputs the headers without the secret; Include Receive Time adds receivedAt', async () => {
		const before = Date.now();
		const result = await ping(staticData, withSecret(secret, body, { 'user-agent': 'provider/1.0' }), {
			includeHeaders: true,
			includeReceiveTime: true,
		});
		const [json] = started(result);
		expect(json).toMatchObject({ ...body, headers: { 'user-agent': 'provider/1.0', 'content-type': 'application/json' } });
		expect(Object.keys(json.headers as IDataObject).map((h) => h.toLowerCase())).not.toContain(HEADER.toLowerCase());
		expect(JSON.stringify(result.response)).not.toContain(secret);
		expect(Date.parse(json.receivedAt as string)).toBeGreaterThanOrEqual(before - 1000);
	});

	it('an added key the ping already uses does not overwrite it', async () => {
		const own = { ...body, headers: 'from provider', receivedAt: 'yesterday' };
		const [json] = started(
			await ping(staticData, withSecret(secret, own), { includeHeaders: true, includeReceiveTime: true }),
		);
		expect(json).toMatchObject({ headers: 'from provider', receivedAt: 'yesterday' });
		expect(json.triggerHeaders).toBeDefined();
		expect(typeof json.triggerReceivedAt).toBe('string');
	});

	it('secretMatches compares the SHA-256 of the value with the stored digest, exactly', () => {
		const abc = sha256('abc');
		expect(secretMatches('abc', abc)).toBe(true);
		expect(secretMatches('abc', abc.toUpperCase())).toBe(true);
		expect(secretMatches('abd', abc)).toBe(false);
		expect(secretMatches('ab', abc)).toBe(false);
		expect(secretMatches(['abc'], abc)).toBe(false);
		expect(secretMatches(undefined, abc)).toBe(false);
		// The digest is never the secret: the plaintext in the stored field does not match itself.
		expect(secretMatches('abc', 'abc')).toBe(false);
		expect(secretMatches(abc, abc)).toBe(false);
		expect(secretMatches('', sha256(''))).toBe(false);
		expect(secretMatches('abc', abc.slice(2))).toBe(false);
		expect(secretMatches('abc', `${abc.slice(0, 63)}z`)).toBe(false);
	});
});

describe('QES trigger: Only Statuses', () => {
	activatedBeforeEach();
	const send = async (body: unknown, options: IDataObject) =>
		await ping(staticData, withSecret(secret, body), { dedupMinutes: 0, ...options });

	it('starts for a listed status (case-insensitive, top level or data.status) and not for others', async () => {
		const options = { onlyStatuses: 'Completed, rejected' };
		expect(started(await send({ sessionId: 's1', status: 'completed' }, options))).toHaveLength(1);
		expect(started(await send({ data: { requestId: 's2', status: 'REJECTED' } }, options))).toHaveLength(1);
		// The envelope's boolean status is not the session status: data.status is.
		expect(started(await send({ status: true, data: { status: 'completed' } }, options))).toHaveLength(1);

		const filtered = await send({ sessionId: 's3', status: 'pending' }, options);
		expect(filtered.response?.workflowData).toBeUndefined();
		expect(filtered.response?.webhookResponse).toEqual({
			received: true,
			started: false,
			reason: 'status "pending" not in Only Statuses',
		});
		expect(filtered.res.ended).toBe(false); // n8n answers 200 with the webhookResponse
	});

	it('a ping without a status is filtered on its fetched status, also with Fetch Verification Result off (then not output)', async () => {
		const noFetch = await send({ sessionId: 'qes-completed-001' }, { onlyStatuses: 'completed' });
		expect(started(noFetch)).toEqual([{ sessionId: 'qes-completed-001' }]);
		const noFetchPending = await send({ sessionId: 'qes-pending-002' }, { onlyStatuses: 'completed' });
		expect(noFetchPending.response?.webhookResponse).toMatchObject({ started: false, reason: 'status "pending" not in Only Statuses' });

		const fetched = await send({ sessionId: 'qes-completed-001' }, { onlyStatuses: 'completed', fetchVerification: true });
		expect(started(fetched)).toHaveLength(1);
		const fetchedPending = await send({ sessionId: 'qes-pending-002' }, { onlyStatuses: 'completed', fetchVerification: true });
		expect(fetchedPending.response?.webhookResponse).toMatchObject({ started: false, reason: 'status "pending" not in Only Statuses' });
	});

	it('a filtered ping is not fetched', async () => {
		await send({ sessionId: 'qes-pending-002', status: 'pending' }, { onlyStatuses: 'completed', fetchVerification: true });
		expect(await sandbox().count('GET /onboarding/getVerification/:sessionId')).toBe(0);
	});

	it('an empty filter lets every status through', async () => {
		expect(started(await send({ status: 'anything' }, { onlyStatuses: ' , ' }))).toHaveLength(1);
	});
});

describe('QES trigger: duplicate pings', () => {
	activatedBeforeEach();
	const body = { event: 'qes.status', sessionId: 'qes-completed-001', status: 'completed', timestamp: '2024-05-14T10:21:40.000Z' };
	const isDuplicateAnswer = (result: RunWebhookResult) =>
		result.response?.workflowData === undefined &&
		JSON.stringify(result.response?.webhookResponse) === JSON.stringify({ received: true, started: false, reason: 'duplicate ping' });

	it("the memory is this process's: nothing goes to static data", async () => {
		const first = await ping(staticData, withSecret(secret, body));
		expect(started(first)).toHaveLength(1);
		expect(first.staticData[NODE_KEY]).toEqual(staticData[NODE_KEY]);
		expect(isDuplicateAnswer(await ping(first.staticData, withSecret(secret, body)))).toBe(true);
		forgetDeliveries(); // the n8n process restarts: its memory is gone
		expect(started(await ping(first.staticData, withSecret(secret, body)))).toHaveLength(1);
	});

	it('starts again once the window has passed', async () => {
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			expect(started(await ping(staticData, withSecret(secret, body), { dedupMinutes: 1 }))).toHaveLength(1);
			clock.mockReturnValue(now + 59_000);
			expect(isDuplicateAnswer(await ping(staticData, withSecret(secret, body), { dedupMinutes: 1 }))).toBe(true);
			clock.mockReturnValue(now + 59_000 + 61_000);
			expect(started(await ping(staticData, withSecret(secret, body), { dedupMinutes: 1 }))).toHaveLength(1);
		} finally {
			clock.mockRestore();
		}
	});

	it('Duplicate Key "Session ID and Status" ignores a resend that differs in other fields; "Whole Body" does not', async () => {
		const resend = { ...body, timestamp: '2024-05-14T10:31:40.000Z', attempt: 2 };
		const bySession = { dedupKey: 'sessionStatus' };
		const first = await ping(staticData, withSecret(secret, body), bySession);
		expect(started(first)).toHaveLength(1);
		expect(isDuplicateAnswer(await ping(first.staticData, withSecret(secret, resend), bySession))).toBe(true);
		expect(isDuplicateAnswer(await ping(first.staticData, withSecret(secret, { data: { ...resend } }), bySession))).toBe(true);
		expect(started(await ping(first.staticData, withSecret(secret, { ...resend, status: 'rejected' }), bySession))).toHaveLength(1);

		forgetDeliveries();
		const whole = await ping(staticData, withSecret(secret, body));
		expect(started(await ping(whole.staticData, withSecret(secret, resend)))).toHaveLength(1);
		// Without a session and a status the whole body decides.
		expect(duplicateKey({ status: 'completed', a: 1 }, 'sessionStatus')).toBe(duplicateKey({ status: 'completed', a: 1 }, 'body'));
		expect(duplicateKey({ status: 'completed', a: 1 }, 'sessionStatus')).not.toBe(duplicateKey({ status: 'completed', a: 2 }, 'sessionStatus'));
	});

	it('test events ("Listen for test event") are never held back as duplicates', async () => {
		const test = await activate({}, { isTest: true });
		const first = await ping(test.staticData, withSecret(test.secret, body), {}, 'manual');
		const second = await ping(first.staticData, withSecret(test.secret, body), {}, 'manual');
		expect(started(first)).toHaveLength(1);
		expect(started(second)).toHaveLength(1);
	});

	it('a refused ping is not remembered', async () => {
		const refused = await ping(staticData, { headers: { [HEADER]: 'x' }, body });
		expect(refused.res.statusCode).toBe(401);
		expect(started(await ping(refused.staticData, withSecret(secret, body)))).toHaveLength(1);
	});
});

describe('QES trigger: Fetch Verification Result', () => {
	activatedBeforeEach();
	const send = async (body: unknown) =>
		await ping(staticData, withSecret(secret, body), { fetchVerification: true, dedupMinutes: 0 });

	it('finds the session in requestId or id, also inside data, and URL-encodes it; an unknown one is still emitted, with the error described', async () => {
		const [fromData] = started(await send({ data: { requestId: 'qes-rejected-003', status: 'rejected' } }));
		expect((fromData.verification as { data: IDataObject }).data.requestId).toBe('qes-rejected-003');
		const [fromId] = started(await send({ id: 'a/b c' }));
		expect(fromId).toMatchObject({ id: 'a/b c', verificationError: { message: 'Get Verification failed with HTTP 404: Session not found', httpCode: 404 } });
		expect(fromId.verification).toBeUndefined();
		const requests = await sandbox().requests('GET /onboarding/getVerification/:sessionId');
		expect(requests.at(-1)!.path).toBe('/onboarding/getVerification/a%2Fb%20c');
	});

	it('a server error: the ping is still emitted, with the error described', async () => {
		await sandbox().configure({ failures: [{ route: 'GET /onboarding/getVerification/:sessionId', status: 503 }] });
		const [json] = started(await send({ sessionId: 'qes-completed-001' }));
		expect(json.verificationError).toMatchObject({ httpCode: 503 });
		// No retry: the answer to the provider must not wait.
		expect(await sandbox().count('GET /onboarding/getVerification/:sessionId')).toBe(1);
	});

	it('a ping that names no session is emitted with an explanation and no request', async () => {
		const [json] = started(await send({ status: 'completed' }));
		expect(json.verificationError).toEqual({ message: 'The ping names no session (sessionId, requestId or id): nothing to fetch' });
		expect(await sandbox().count('GET /onboarding/getVerification/:sessionId')).toBe(0);
	});

	const probe = async (budgetMs: number, sessionId = 'qes-completed-001') => {
		const result = await runWebhook({ ...common(), node: budgetProbe(budgetMs), request: { headers: {}, body: { sessionId } } });
		return result.response!.workflowData![0][0].json;
	};

	it('an abandoned fetch ends at its deadline: its token exchange does not hold up the next ping', async () => {
		clearTokenCache(); // activate() above left a token: this fetch must exchange one
		await sandbox().configure({ failures: [{ route: 'POST /auth', hang: true }] });
		const abandoned = await probe(300);
		expect(abandoned.verification).toBeUndefined();
		expect(abandoned.verificationError).toBeDefined();
		// The /auth above never answers: a fetch still waiting for it would make this one time out too.
		const next = await probe(3_000);
		expect(next.verificationError).toBeUndefined();
		expect(next.verification).toMatchObject({ data: { requestId: 'qes-completed-001' } });
		expect(await sandbox().count('GET /onboarding/getVerification/:sessionId')).toBe(1);
	});

	it('Fetch Time Limit bounds the real trigger: the ping starts without the result and says so', async () => {
		await sandbox().configure({ latencyMs: 2_000 });
		const result = await ping(staticData, withSecret(secret, { sessionId: 'qes-completed-001', status: 'completed' }), {
			fetchVerification: true,
			fetchTimeLimit: 0.5,
		});
		const [json] = started(result);
		expect(json).toMatchObject({ sessionId: 'qes-completed-001', verificationError: { timedOut: true } });
		expect(json.verification).toBeUndefined();
		expect(String((json.verificationError as IDataObject).message)).toContain('did not finish within 0.5 s');
		expect(result.response?.webhookResponse).toEqual({ received: true, started: true });
	});

	// Hanging, 500 and 429 with Retry-After: trigger-acknowledge.e2e.test.js, in a running n8n.
	it('Only Statuses and a ping without a status: when Get Verification drops the connection the ping is answered 503 and released; its resend starts', async () => {
		const options = { fetchVerification: true, fetchTimeLimit: 0.5, onlyStatuses: 'completed' };
		const body = { sessionId: 'qes-completed-001' };
		await sandbox().configure({ failures: [{ route: 'GET /onboarding/getVerification/:sessionId', status: 0 }] });
		const first = await ping(staticData, withSecret(secret, body), options);
		expect(first.res).toMatchObject({ statusCode: 503, ended: true, body: { received: true, started: false } });
		expect(String((first.res.body as IDataObject).reason)).toMatch(/^status unknown: /);
		expect(started(first)).toEqual([]);
		await sandbox().configure({ latencyMs: 0, failures: [] });
		const resend = await ping(staticData, withSecret(secret, body), options);
		expect(started(resend)).toMatchObject([{ sessionId: 'qes-completed-001', verification: { data: { status: 'completed' } } }]);
	});

	it('Only Statuses and a ping without a status: an unknown session (404) cannot be decided ever, so the ping starts with verificationError saying why', async () => {
		const [json] = started(await ping(staticData, withSecret(secret, { sessionId: 'no-such-session' }), { fetchVerification: true, onlyStatuses: 'completed' }));
		expect(json).toMatchObject({ sessionId: 'no-such-session', verificationError: { httpCode: 404 } });
		expect(String((json.verificationError as IDataObject).message)).toContain('Only Statuses could not be applied');
	});
});

/** The trigger's description with a webhook() that runs fetchVerification on a short budget (the node's default is 3 s). */
function budgetProbe(budgetMs: number): INodeType {
	const { description } = new VerificationServicesTrigger();
	return {
		description,
		async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
			const body = this.getBodyData();
			const result = await fetchVerification(this, String(body.sessionId), budgetMs);
			return { workflowData: [[{ json: { ...body, ...result } as IDataObject }]] };
		},
	};
}

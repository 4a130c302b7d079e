/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * Contract of the shared request path at node level: real nodes run through n8n-core's WorkflowExecute
 * against the emulator over HTTP, while the emulator misbehaves (echoed secrets, garbage 2xx, silence,
 * 429/503 storms, a mid-run 401, partial failures, redirects, trickling and oversized answers). No
 * redirect is followed (a second loopback server stands for the other origin and counts what reaches
 * it), one deadline covers the headers and the whole body, and an answer is read only up to the size
 * cap. Timeouts are short through the node option; nothing here measures time.
 */
import { NodeApiError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { MAX_RESPONSE_BYTES } from '../../nodes/shared/transport/limited-request';
import { type ForeignOrigin, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, VALID_DEPOSIT, items, resourceRun, startForeignOrigin, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runAml = resourceRun(emulator, 'aml');
const runPayments = resourceRun(emulator, 'payments');
const runPhone = resourceRun(emulator, 'phone');
const runQes = resourceRun(emulator, 'qes');

const AML = 'POST /aml/checkIndividual';
const DEPOSIT = 'POST /payments/challenge-deposit';
const AUTH = 'POST /auth';
const FAST = { timeoutSeconds: 0.5 };

let foreign: ForeignOrigin;
beforeAll(async () => {
	foreign = await startForeignOrigin();
});
beforeEach(() => {
	foreign.requests.length = 0;
});
afterAll(async () => await foreign.close());

/** A Location on the other origin whose path and query hold what must never be shown. */
const elsewhere = () => `${foreign.origin}/steal/path?token=query-secret`;

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;
const b64 = (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '');

/** Everything n8n keeps of a run's error and output, as text. */
function everything(run: { error?: Error; outputs?: INodeExecutionData[][] }): string {
	const e = run.error as (Error & Record<string, unknown>) | undefined;
	const parts = e ? [e.message, e.stack, e.description, e.messages, e.context, e.cause, e.errorResponse] : [];
	return JSON.stringify([parts, run.outputs, e ? Object.entries(e).filter(([k]) => k !== 'node') : []]);
}

function expectNoSecret(text: string): void {
	for (const secret of [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, encodeURIComponent(SANDBOX_API_KEY), b64(SANDBOX_API_KEY)]) {
		expect(text).not.toContain(secret);
	}
	expect(text).not.toMatch(JWT);
}

async function checkIndividual(n: number, options: IDataObject = {}, run: { continueOnFail?: boolean; cancelWhen?: Promise<unknown> } = {}) {
	const input = items(...Array.from({ length: n }, (_, i) => ({ name: i % 2 ? 'Viktor Sanctioned' : `Clean Person ${i}` })));
	return await runAml({ operation: 'checkIndividual', name: '={{ $json.name }}', options } as never, { input, ...run });
}

async function deposits(n: number, options: IDataObject = {}, run: Parameters<ReturnType<typeof emulator>['run']>[2] = {}) {
	const input = items(...Array.from({ length: n }, (_, i) => ({ ref: `order-${i + 1}` })));
	return await runPayments({ ...VALID_DEPOSIT, description: '={{ $json.ref }}', options } as never, { input, ...run });
}

describe('request path: secrets echoed by the API never leave the node', () => {
	it.each([false, true])('an /auth 400 that echoes Api-Key and Customer-Id (continueOnFail %s)', async (continueOnFail) => {
		await emulator().configure({ failures: [{ route: AUTH, status: 400, echoHeaders: true }] });
		const run = await checkIndividual(2, {}, { continueOnFail });
		const text = everything(run);
		expect(text).toContain('The token exchange failed with HTTP 400');
		expect(text).toContain('[redacted]');
		expectNoSecret(text);
	});

	it.each([400, 401, 403, 422, 500])('an operation answer %s that echoes the bearer token', async (status) => {
		await emulator().configure({ failures: [{ route: AML, status, echoHeaders: true, count: 2 }] });
		for (const continueOnFail of [false, true]) {
			await emulator().configure({ failures: [{ route: AML, status, echoHeaders: true, count: 2 }] });
			const run = await checkIndividual(1, { maxRetries: 0 }, { continueOnFail });
			const text = everything(run);
			expect(text).toContain(`HTTP ${status}`);
			expect(text).toContain('authorization=Bearer [redacted]');
			expectNoSecret(text);
		}
	});

	it('an echoed OTP code (securityFactor) is cut out of the error', async () => {
		await emulator().configure({ failures: [{ route: 'POST /phone-service/verification', status: 400, echoHeaders: true }] });
		const run = await runPhone({ operation: 'sendOtp', method: 'sms', phoneNumber: '436501234567', additionalFields: { securityFactor: '482913' } } as never,
		);
		const text = everything(run);
		expect(text).toContain('HTTP 400');
		expect(text).not.toContain('482913');
		expect(text).toContain('\\"securityFactor\\":\\"[redacted]\\"');
		expectNoSecret(text);
	});
});

describe('request path: a 2xx that is not the expected JSON is an error, never a result', () => {
	const garbage: Array<[string, IDataObject]> = [
		['an HTML page', { status: 200, raw: '<html><body>Maintenance</body></html>' }],
		['invalid JSON', { status: 200, raw: '{"totalHits": 0,', contentType: 'application/json' }],
		['an empty body', { status: 200, raw: '', contentType: 'application/json' }],
		['null', { status: 200, raw: 'null', contentType: 'application/json' }],
		['{}', { status: 200, body: {} }],
	];

	it.each(garbage)('AML Check Individual with %s never says "no hit"', async (_, failure) => {
		await emulator().configure({ failures: [{ route: AML, ...failure }] });
		const failed = await checkIndividual(1);
		expect(failed.error).toBeInstanceOf(NodeApiError);
		expect(failed.error!.message).toMatch(/Check Individual got an answer that is not a result \(a non-empty JSON object without an error\) \(HTTP 200\)/);
		expect(failed.items).toEqual([]);

		await emulator().configure({ failures: [{ route: AML, ...failure }] });
		const continued = await checkIndividual(2, {}, { continueOnFail: true });
		expect(continued.items[0].json.error).toMatch(/not a result/);
		expect(continued.items[0].json).not.toHaveProperty('screeningSummary');
		expect(continued.items[1].json.screeningSummary).toMatchObject({ isHit: true });
	});

	it('an empty 200 on Challenge Deposit is an error that says the deposit may have been made', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 200, raw: '', contentType: 'application/json' }] });
		const { error, items: out } = await deposits(1);
		expect(out).toEqual([]);
		expect(error!.message).toContain('an empty body');
		expect((error as NodeApiError).description).toMatch(/may have been carried out \(money moved/);
		expect(await emulator().count(DEPOSIT)).toBe(1);
	});

	it('operations documented as "200 with no body" accept an empty answer', async () => {
		await emulator().configure({ failures: [{ route: 'POST /aml/ongoingMonitoring/removeSearchProfile', status: 200, raw: '', contentType: 'text/plain' }] });
		const out = succeeded(await runAml({ operation: 'removeSearchProfile', profileId: 'p-1' } as never));
		expect(out).toEqual([{ json: { success: true }, pairedItem: { item: 0 } }]);
	});
});

describe('request path: what is resent', () => {
	const MAY_HAVE = /may have received and carried out this request/;
	const NEVER_RESENT = /may have received and carried out this request.*never resent after a timeout/s;
	// [what happened, the emulator's failure, node options, in the error message, in its description]
	const uncertain: Array<[string, IDataObject, IDataObject, string, RegExp]> = [
		['never answers', { hang: true, count: 5 }, FAST, 'timeout of 0.5 s', NEVER_RESENT],
		['answered 503', { status: 503, count: 6 }, {}, 'Challenge Deposit failed with HTTP 503', MAY_HAVE],
		['answered 200 trickling past the deadline', { status: 200, trickleMs: 100, count: 5 }, FAST, '(no complete answer within the timeout of 0.5 s)', NEVER_RESENT],
		['answered 200 over the size cap', { status: 200, bytes: MAX_RESPONSE_BYTES + 1, chunked: true }, {}, 'larger than the limit of 64 MiB (HTTP 200)', MAY_HAVE],
		['lost its connection before an answer', { status: 0, count: 5 }, {}, 'Challenge Deposit could not reach the API', /may have received and carried out this request.*never resent after a network error/s],
	];
	it.each(uncertain.flatMap(([what, ...row]) => [false, true].map((continueOnFail) => [what, continueOnFail, ...row] as const)))(
		'a deposit that %s is sent once; the error says it may have been carried out (continueOnFail %s)',
		async (_what, continueOnFail, failure, options, message, description) => {
			await emulator().configure({ failures: [{ route: DEPOSIT, ...failure }] });
			const run = await deposits(1, options, { continueOnFail });
			expect(continueOnFail ? run.items[0].json.error : run.error!.message).toContain(message);
			expect(continueOnFail ? run.items[0].json.description : (run.error as NodeApiError).description).toMatch(description);
			expect(await emulator().count(DEPOSIT)).toBe(1);
		},
	);

	it('a deposit answered 429 or 401 is resent: the API refused it before acting', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 429, retryAfter: 0 }, { route: DEPOSIT, status: 401 }] });
		const out = succeeded(await deposits(1));
		expect(out[0].json.transactionId).toEqual(expect.any(String));
		expect(await emulator().count(DEPOSIT)).toBe(3);
		expect(await emulator().count(AUTH)).toBe(2);
	});

	it('a 400 on a deposit says it was not carried out', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 400 }] });
		const { error } = await deposits(1);
		expect((error as NodeApiError).description).toContain('The API refused the request (HTTP 400), so it was not carried out.');
	});
});

describe('request path: storms at /auth and at the operation, the concurrency cap and a mid-run 401', () => {
	it.each([429, 503])('%s with Retry-After at /auth: every item waits, none fails', async (status) => {
		await emulator().configure({ failures: [{ route: AUTH, status, retryAfter: 1, count: 2 }] });
		const out = succeeded(await checkIndividual(6));
		expect(out).toHaveLength(6);
		expect(await emulator().count(AUTH)).toBe(3);
	});

	it('a 429 storm (rate limit 10/s) on 30 items: all succeed, in order', async () => {
		await emulator().configure({ rateLimit: { requestsPerSecond: 10 } });
		const out = succeeded(await checkIndividual(30, { maxRetries: 10 }));
		expect(out.map((i) => i.pairedItem)).toEqual(Array.from({ length: 30 }, (_, item) => ({ item })));
		const stats = await emulator().stats();
		expect(stats.status['429']).toBeGreaterThan(0);
	});

	it('a 503 storm on some requests: reads retry, all succeed', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 503, count: 8, retryAfter: 0 }] });
		const out = succeeded(await checkIndividual(10, { maxRetries: 10 }));
		expect(out).toHaveLength(10);
		expect(await emulator().count(AML)).toBe(18);
	});

	it('never more than Max Concurrent Requests at once', async () => {
		await emulator().configure({ latencyMs: 60 });
		succeeded(await checkIndividual(12, { maxConcurrentRequests: 3 }));
		expect((await emulator().stats()).maxConcurrent).toBe(3);
	});

	it('a 401 in the middle of a run renews the token once and carries on', async () => {
		await checkIndividual(1);
		await emulator().configure({ failures: [{ route: AML, status: 401, count: 1 }] });
		const out = succeeded(await checkIndividual(8, { maxConcurrentRequests: 1 }));
		expect(out).toHaveLength(8);
		expect(await emulator().count(AUTH)).toBe(2);
	});
});

describe('request path: partial failure of money', () => {
	it('Continue On Fail off: stops sending, lists accepted deposits with transactionId and the ones not sent', async () => {
		await emulator().configure({ latencyMs: 30, failures: [{ route: DEPOSIT, status: 500 }] });
		const { error, items: out } = await deposits(10, { maxConcurrentRequests: 5 });
		expect(out).toEqual([]);
		expect(await emulator().count(DEPOSIT)).toBe(5);
		expect(error!.message).toMatch(/^Challenge Deposit failed for item \d+; 4 items were already accepted by the API and 5 not sent$/);
		const description = (error as NodeApiError).description!;
		expect(description.match(/item \d+ \(transactionId [\w-]+\)/g)).toHaveLength(4);
		expect(description).toContain('Not sent: item 6, item 7, item 8, item 9, item 10.');
		expect(description).toMatch(/Failed: item \d: Challenge Deposit failed with HTTP 500/);
		expect((error as NodeApiError).httpCode).toBe('500');
	});

	it('Continue On Fail on: every deposit is sent once, the failed one becomes an error item', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 500 }] });
		const { error, items: out } = await deposits(10, { maxConcurrentRequests: 5 }, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(out.filter((i) => i.json.error)).toHaveLength(1);
		expect(out.filter((i) => i.json.transactionId)).toHaveLength(9);
		expect(await emulator().count(DEPOSIT)).toBe(10);
	});
});

describe('request path: error output', () => {
	it('"Continue (using error output)": failed items leave on the error output', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 500 }] });
		const run = await deposits(3, { maxConcurrentRequests: 1 }, { onError: 'continueErrorOutput' });
		expect(run.error).toBeUndefined();
		expect(run.outputs).toHaveLength(2);
		expect(run.outputs[0].map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(run.outputs[1]).toHaveLength(1);
		expect(run.outputs[1][0].json.error).toContain('HTTP 500');
		expect(run.outputs[1][0].pairedItem).toEqual({ item: 0 });
	});

	it('"Continue": failed items stay on the one output, as before', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 500 }] });
		const run = await deposits(3, { maxConcurrentRequests: 1 }, { onError: 'continueRegularOutput' });
		expect(run.outputs).toHaveLength(1);
		expect(run.outputs[0]).toHaveLength(3);
		expect(run.outputs[0][0].json).toEqual({ error: expect.stringContaining('HTTP 500'), description: expect.any(String), httpCode: '500' });
		expect(run.outputs[0][0]).not.toHaveProperty('error');
	});
});

describe('request path: path ids', () => {
	// Every refused id, value by value, is a row of fillPath in build-request.test.ts; here the run sends nothing.
	it('a sessionId of ".." is refused before sending', async () => {
		const { error } = await runQes({ operation: 'getVerification', sessionId: '..' } as never);
		expect(error!.message).toBe('Session ID (sessionId) must be an id, not empty, "." or "..", got ".." (item 1)');
		expect((await emulator().stats()).total).toBe(0);
	});
});

/** Resolves once `check` holds, asking every 20 ms: waits on an event, never for a fixed time. */
async function until(check: () => Promise<boolean>): Promise<void> {
	while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

describe('request path: network failures keep their code', () => {
	it('a dropped connection names its code in the description and keeps a redacted cause', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 0, count: 5 }] });
		const { error } = await checkIndividual(1, { maxRetries: 0 });
		expect(error!.message).toBe(`Check Individual could not reach the API at ${emulator().baseUrl} (connection reset)`);
		expect((error as NodeApiError).description).toMatch(/^ECONNRESET: socket hang up\. The request could not reach the API/);
		expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
		expectNoSecret(everything({ error, outputs: [] }));
	});

	it('a refused connection at the token exchange names ECONNREFUSED', async () => {
		const { error } = await runAml({ operation: 'checkIndividual', name: 'Jane Doe' } as never, {
			credentials: { sandboxBaseUrl: 'http://127.0.0.1:9/api/services' },
		});
		expect(error!.message).toBe('Check Individual failed: Could not reach the verification API at http://127.0.0.1:9/api/services (connection refused): check the base URL of the credential\'s environment');
		expect((error as NodeApiError).description).toMatch(/^ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:9\.$/);
	});
});

describe('request path: a long 429 pause', () => {
	it('ends a 429 pause and the pacer waits at once, and sends nothing more', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 429, retryAfter: 100, count: 100 }] });
		const firstAnswered = until(async () => (await emulator().stats()).status['429'] >= 1);
		// Without the cancel signal the run would sleep out the 100 s pause (and outlast the test's timeout).
		const run = await checkIndividual(6, { maxConcurrentRequests: 2 }, { cancelWhen: firstAnswered });
		expect(run.items).toEqual([]);
		expect(await emulator().count(AML)).toBeLessThanOrEqual(2);
	});

	it('a request admitted after a long 429 pause carries a fresh token: no 401', async () => {
		// Tokens last 4 s; the pause lasts 5 s; the second item is admitted only after it, and the first
		// one after that, with a token that has seconds left (JWT expiry counts in whole seconds).
		await emulator().configure({ tokenLifetimeSeconds: 4, failures: [{ route: AML, status: 429, retryAfter: 5 }] });
		const out = succeeded(await checkIndividual(2, { maxRequestsPerSecond: 1 }));
		expect(out).toHaveLength(2);
		expect((await emulator().stats()).status['401'] ?? 0).toBe(0);
		expect(await emulator().count(AUTH)).toBe(2);
	});
});

describe('no redirect is followed', () => {
	it('the redirect error names no key, customer id or token', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 307, location: `${foreign.origin}/x?key=${SANDBOX_API_KEY}&c=${SANDBOX_CUSTOMER_ID}` }] });
		const text = everything(await checkIndividual(1));
		expect(text).not.toContain(SANDBOX_API_KEY);
		expect(text).not.toContain(SANDBOX_CUSTOMER_ID);
	});

	it.each([301, 302, 303, 307, 308])('/auth answered %s to another origin: that origin receives nothing', async (status) => {
		await emulator().configure({ failures: [{ route: AUTH, status, location: elsewhere() }] });
		const run = await checkIndividual(2, {}, { continueOnFail: true });
		expect(foreign.requests).toEqual([]);
		for (const item of run.items) {
			expect(item.json.error).toBe(
				`Check Individual failed: The token exchange got a redirect (HTTP ${status} to ${foreign.origin}), which is not followed: the key was not sent there. Check the base URL of the credential's environment: an old address or a proxy may redirect`,
			);
		}
		expect(everything(run)).not.toMatch(/steal|query-secret/);
		expect(await emulator().count(AML)).toBe(0);
	});

	it('an operation answered 307 to another origin: the token goes nowhere, the read is not resent', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 307, location: elsewhere() }] });
		const { error } = await checkIndividual(1);
		expect(foreign.requests).toEqual([]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe(`Check Individual got a redirect (HTTP 307 to ${foreign.origin}), which is not followed`);
		expect((error as NodeApiError).description).toMatch(/^Redirects are never followed, so the token was not sent there\. Check the base URL/);
		expect((error as NodeApiError).httpCode).toBe('307');
		expect(everything({ error })).not.toMatch(/steal|query-secret/);
		expect(await emulator().count(AML)).toBe(1);
	});

	it('a redirect to the same origin is not followed either, and a missing Location is named', async () => {
		await emulator().configure({
			failures: [
				{ route: AML, status: 302, location: '/api/services/aml/checkIndividual?again=1' },
				{ route: AML, status: 302 },
			],
		});
		const first = await checkIndividual(1);
		expect(first.error!.message).toBe(`Check Individual got a redirect (HTTP 302 to ${new URL(emulator().baseUrl).origin}), which is not followed`);
		const second = await checkIndividual(1);
		expect(second.error!.message).toBe('Check Individual got a redirect (HTTP 302 to no Location), which is not followed');
		expect(await emulator().count(AML)).toBe(2);
	});
});

describe('timeouts: one deadline for the headers and the whole body', () => {
	it('a silent /auth fails every waiting item after one timeout, with one exchange', async () => {
		await emulator().configure({ failures: [{ route: AUTH, hang: true }] });
		const { items: out } = await checkIndividual(3, FAST, { continueOnFail: true });
		expect(out).toHaveLength(3);
		for (const item of out) expect(item.json.error).toMatch(/no answer within the timeout of 0.5 s/);
		expect(await emulator().count(AUTH)).toBe(1);
		expect(await emulator().count(AML)).toBe(0);
	});

	it('a stopped execution still ends a request whose answer is trickling in', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 200, trickleMs: 100 }] });
		const arrived = until(async () => (await emulator().count(AML)) >= 1);
		// Without the cancel signal the request would run for the whole Timeout of 10 minutes.
		const run = await checkIndividual(1, { timeoutSeconds: 600 }, { cancelWhen: arrived });
		expect(run.items).toEqual([]);
		expect(await emulator().count(AML)).toBe(1);
	});

	it('a trickling /auth fails the items with the deadline error, with one exchange', async () => {
		await emulator().configure({ failures: [{ route: AUTH, status: 200, trickleMs: 100 }] });
		const { items: out } = await checkIndividual(2, FAST, { continueOnFail: true });
		for (const item of out) expect(item.json.error).toMatch(/\(no complete answer within the timeout of 0\.5 s\)/);
		expect(await emulator().count(AUTH)).toBe(1);
		expect(await emulator().count(AML)).toBe(0);
	});
});

describe('an answer is read up to the size cap', () => {
	const over = MAX_RESPONSE_BYTES + 1;

	it('an AML answer over the cap with a Content-Length is an error naming the cap, not sent again', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 200, bytes: over, count: 5 }] });
		const { error } = await checkIndividual(1);
		expect(error!.message).toBe('Check Individual got an answer larger than the limit of 64 MiB (HTTP 200), which was not read further');
		expect(await emulator().count(AML)).toBe(1);
	});

	it('an answer just under the cap is read', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 200, bytes: 1024 * 1024, contentType: 'text/plain' }] });
		const { error } = await checkIndividual(1);
		// A megabyte of spaces is no result: the answer arrived whole and was judged by its content.
		expect(error!.message).toMatch(/got an answer that is not a result .*\(HTTP 200\): an empty body \(text\/plain\)/);
	});

	it('an /auth answer over its cap of 1 MiB fails the exchange', async () => {
		await emulator().configure({ failures: [{ route: AUTH, status: 200, bytes: 2 * 1024 * 1024, chunked: true }] });
		const { error } = await checkIndividual(1);
		expect(error!.message).toBe('Check Individual failed: The token exchange got an answer larger than the limit of 1 MiB (HTTP 200), which was not read further');
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * The limits of every request, at node level against the emulator over HTTP (n8n-core's real request
 * helper): no redirect is followed (a second loopback server stands for the other origin and counts
 * what reaches it), one deadline covers the headers and the whole body, and an answer is read only
 * up to the size cap. Timeouts are short through the node option; nothing here measures time.
 */
import { NodeApiError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { VerificationServicesApi } from '../../credentials/VerificationServicesApi.credentials';
import { VerificationAml } from '../../nodes/Aml/VerificationAml.node';
import { VerificationPayments } from '../../nodes/Payments/VerificationPayments.node';
import { MAX_RESPONSE_BYTES } from '../../nodes/shared/transport/limited-request';
import { VALID_DEPOSIT } from '../helpers/deposit';
import { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, items, useSandbox } from '../helpers/sandbox';
import { type ForeignOrigin, startForeignOrigin } from '../helpers/foreign-origin';
import { runCredentialTest } from '../helpers/n8n';

const emulator = useSandbox();
const aml = new VerificationAml();
const payments = new VerificationPayments();

const AML = 'POST /aml/checkIndividual';
const DEPOSIT = 'POST /payments/challenge-deposit';
const AUTH = 'POST /auth';
const FAST = { timeoutSeconds: 0.5 };

let foreign: ForeignOrigin;
beforeEach(async () => {
	foreign = await startForeignOrigin();
});
afterEach(async () => await foreign.close());

/** A Location on the other origin whose path and query hold what must never be shown. */
const elsewhere = () => `${foreign.origin}/steal/path?token=query-secret`;

/** Resolves once `check` holds, asking every 20 ms: waits on an event, never for a fixed time. */
async function until(check: () => Promise<boolean>): Promise<void> {
	while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

async function checkIndividual(n: number, options: IDataObject = {}, run: { continueOnFail?: boolean; cancelWhen?: Promise<unknown> } = {}) {
	const input = items(...Array.from({ length: n }, (_, i) => ({ name: `Clean Person ${i}` })));
	return await emulator().run(aml, { operation: 'checkIndividual', name: '={{ $json.name }}', options } as never, { input, ...run });
}

async function deposits(n: number, options: IDataObject = {}, run: { continueOnFail?: boolean } = {}) {
	const input = items(...Array.from({ length: n }, (_, i) => ({ ref: `order-${i + 1}` })));
	return await emulator().run(payments, { ...VALID_DEPOSIT, description: '={{ $json.ref }}', options } as never, { input, ...run });
}

function everything(run: { error?: Error; outputs?: INodeExecutionData[][] }): string {
	const e = run.error as (Error & Record<string, unknown>) | undefined;
	return JSON.stringify([e?.message, e?.description, e?.cause, e?.errorResponse, run.outputs]);
}

describe('no redirect is followed', () => {
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

	it('a deposit answered 308 to another origin: sent once, and the error says it may have been carried out', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 308, location: elsewhere() }] });
		const { items: out } = await deposits(1, {}, { continueOnFail: true });
		expect(foreign.requests).toEqual([]);
		expect(out[0].json.error).toBe(`Challenge Deposit got a redirect (HTTP 308 to ${foreign.origin}), which is not followed`);
		expect(out[0].json.description).toMatch(/may have received and carried out this request/);
		expect(await emulator().count(DEPOSIT)).toBe(1);
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

	it("the credential's Test button: /auth answered 307 to another origin is refused, that origin receives nothing", async () => {
		await emulator().configure({ failures: [{ route: AUTH, status: 307, location: elsewhere(), count: 5 }] });
		for (const accessToken of ['', 'a-stored-token']) {
			const result = await runCredentialTest({
				credentialType: new VerificationServicesApi(),
				data: { ...emulator().credentials, accessToken },
			});
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/redirect \(HTTP 307/);
			expect(result.message).not.toMatch(/steal|query-secret/);
		}
		expect(foreign.requests).toEqual([]);
	});
});

describe('one deadline for the headers and the whole body', () => {
	it('a read whose body trickles one byte every 100 ms ends with the deadline error, tried once more', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 200, trickleMs: 100, count: 5 }] });
		const { error } = await checkIndividual(1, FAST);
		expect(error!.message).toBe(`Check Individual could not get an answer from the API at ${emulator().baseUrl} (no complete answer within the timeout of 0.5 s)`);
		expect(await emulator().count(AML)).toBe(2);
	});

	it.each([false, true])('a deposit whose answer trickles is sent once; the error says it may have been carried out (continueOnFail %s)', async (continueOnFail) => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 200, trickleMs: 100, count: 5 }] });
		const run = await deposits(1, FAST, { continueOnFail });
		const message = continueOnFail ? run.items[0].json.error : run.error!.message;
		const description = continueOnFail ? run.items[0].json.description : (run.error as NodeApiError).description;
		expect(message).toContain('(no complete answer within the timeout of 0.5 s)');
		expect(description).toMatch(/may have received and carried out this request.*never resent after a timeout/s);
		expect(await emulator().count(DEPOSIT)).toBe(1);
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

	it.each([
		['with a Content-Length', false],
		['chunked, without a length', true],
	])('an AML answer over the cap (%s) is an error naming the cap, not sent again', async (_, chunked) => {
		await emulator().configure({ failures: [{ route: AML, status: 200, bytes: over, chunked, count: 5 }] });
		const { error } = await checkIndividual(1);
		expect(error!.message).toBe('Check Individual got an answer larger than the limit of 64 MiB (HTTP 200), which was not read further');
		expect(await emulator().count(AML)).toBe(1);
	});

	it('a deposit answered 200 over the cap: the error says it may have been carried out', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 200, bytes: over, chunked: true }] });
		const { error } = await deposits(1);
		expect(error!.message).toContain('larger than the limit of 64 MiB (HTTP 200)');
		expect((error as NodeApiError).description).toMatch(/may have received and carried out this request/);
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

describe('secrets stay out of every limit error', () => {
	it('no key, customer id or token in the redirect error', async () => {
		await emulator().configure({ failures: [{ route: AML, status: 307, location: `${foreign.origin}/x?key=${SANDBOX_API_KEY}&c=${SANDBOX_CUSTOMER_ID}` }] });
		const text = everything(await checkIndividual(1));
		expect(text).not.toContain(SANDBOX_API_KEY);
		expect(text).not.toContain(SANDBOX_CUSTOMER_ID);
	});
});

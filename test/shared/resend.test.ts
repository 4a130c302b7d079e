/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * "May this request go out again?" at node level: money and message operations under n8n's Retry On
 * Fail (n8n-core's WorkflowExecute re-runs the whole node when it throws, and when the first output
 * item carries `json.error`), receipts of answers the node cannot use, and a cancel while a payment
 * is on the wire. The count of requests per item is the assertion. The same cases in real n8n 2.x
 * and 1.x: test/e2e/resend.e2e.test.js.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeExecutionData, NodeApiError, OnError } from 'n8n-workflow';

import { VerificationDocument } from '../../nodes/Document/VerificationDocument.node';
import { VerificationPayments } from '../../nodes/Payments/VerificationPayments.node';
import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';
import { MAX_REMEMBERED, forgetSends, recallSend, rememberSend, rememberedSends } from '../../nodes/shared/transport/sent-requests';
import { VALID_DEPOSIT } from '../helpers/deposit';
import { SANDBOX_CUSTOMER_ID, items, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const payments = new VerificationPayments();
const phone = new VerificationPhone();
const document = new VerificationDocument();

const DEPOSIT = 'POST /payments/challenge-deposit';
const OTP = 'POST /phone-service/verification';
const HANDSHAKE = 'POST /sdk/universal/handshake';
/** n8n's Retry On Fail with 3 tries and no wait between them. */
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

const refs = (n: number) => items(...Array.from({ length: n }, (_, i) => ({ ref: `p-${i + 1}` })));

/** How many requests of `route` carried each item's reference (read from the body by `refOf`). */
async function requestsPerItem(route: string, refOf: (body: IDataObject) => unknown): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const request of await emulator().requests(route)) {
		const ref = String(refOf(request.body as IDataObject));
		counts[ref] = (counts[ref] ?? 0) + 1;
	}
	return counts;
}

async function deposits(input: INodeExecutionData[], run: { onError?: OnError; retry?: typeof RETRY; cancelWhen?: Promise<unknown> } = {}) {
	return await emulator().run(payments, { ...VALID_DEPOSIT, description: '={{ $json.ref }}', options: { maxConcurrentRequests: 1 } } as never, {
		input,
		retry: RETRY,
		...run,
	});
}

const json = (out: INodeExecutionData[]) => out.map((item) => item.json);

describe('Retry On Fail never sends a money or message request twice', () => {
	it('Challenge Deposit, 5 items, the 3rd answered 500, Stop Workflow: one request per item, accepted ones listed', async () => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 500, after: 2 }] });
		const run = await deposits(refs(5));
		expect(await requestsPerItem(DEPOSIT, (b) => b.description)).toEqual({ 'p-1': 1, 'p-2': 1, 'p-3': 1 });
		expect(run.error!.message).toBe('Challenge Deposit failed for item 3; 2 items were already accepted by the API and 2 not sent');
		expect((run.error as NodeApiError).description).toMatch(/^Accepted by the API, do not send again: item 1 \(transactionId [\w-]+\), item 2 \(transactionId [\w-]+\)\./);
	});

	// The first deposit's error item is what makes n8n run the node again (its json.error).
	it.each<[OnError, number]>([
		['continueRegularOutput', 0],
		['continueErrorOutput', 1],
	])('Challenge Deposit, On Error %s, the 1st answered 500: every item sent once, accepted ones keep their answers', async (onError, errorOutput) => {
		await emulator().configure({ failures: [{ route: DEPOSIT, status: 500 }] });
		const run = await deposits(refs(5), { onError });
		expect(await requestsPerItem(DEPOSIT, (b) => b.description)).toEqual({ 'p-1': 1, 'p-2': 1, 'p-3': 1, 'p-4': 1, 'p-5': 1 });
		expect(run.error).toBeUndefined();
		const accepted = run.outputs[0].filter((item) => item.json.transactionId);
		expect(accepted.map((item) => [item.json.description, item.pairedItem])).toEqual([
			['p-2', { item: 1 }],
			['p-3', { item: 2 }],
			['p-4', { item: 3 }],
			['p-5', { item: 4 }],
		]);
		const failed = run.outputs[errorOutput].filter((item) => item.json.error);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(failed[0].json.error).toContain('HTTP 500');
		// On the error output n8n keeps only the message in json; the description stays on the item's error.
		expect(JSON.stringify(failed[0])).toContain('may have received and carried out this request');
	});

	it('Continue On Fail with an invalid first item (n8n retries on its json.error): each valid deposit sent once', async () => {
		const input = items({ ref: 'not valid!' }, { ref: 'p-2' }, { ref: 'p-3' });
		const run = await deposits(input, { onError: 'continueRegularOutput' });
		expect(await requestsPerItem(DEPOSIT, (b) => b.description)).toEqual({ 'p-2': 1, 'p-3': 1 });
		expect(json(run.items)[0].error).toMatch(/^Description \(description\)/);
		expect(json(run.items).slice(1).map((j) => j.description)).toEqual(['p-2', 'p-3']);
	});

	it('items never sent (the token exchange failed) are sent on the next try, once each', async () => {
		await emulator().configure({ failures: [{ route: 'POST /auth', status: 0 }] });
		const input = refs(3);
		const run = await emulator().run(payments, { ...VALID_DEPOSIT, description: '={{ $json.ref }}', options: { maxRetries: 0 } } as never, { input, retry: RETRY });
		expect(run.error).toBeUndefined();
		expect(await requestsPerItem(DEPOSIT, (b) => b.description)).toEqual({ 'p-1': 1, 'p-2': 1, 'p-3': 1 });
		expect(json(run.items).map((j) => j.description)).toEqual(['p-1', 'p-2', 'p-3']);
	});

	it('Send OTP: an unknown fate (connection cut) fails again on every try without a second message', async () => {
		await emulator().configure({ failures: [{ route: OTP, status: 0 }] });
		const input = items({ phone: '4366011111' }, { phone: '4366022222' }, { phone: '4366033333' });
		const run = await emulator().run(phone, { operation: 'sendOtp', method: 'sms', phoneNumber: '={{ $json.phone }}' } as never, {
			input,
			onError: 'continueRegularOutput',
			retry: RETRY,
		});
		expect(await requestsPerItem(OTP, (b) => b.phoneNumber)).toEqual({ '4366011111': 1, '4366022222': 1, '4366033333': 1 });
		expect(json(run.items).map((j) => (j.error ? 'error' : j.referenceId ? 'sent' : 'other'))).toEqual(['error', 'sent', 'sent']);
		expect(json(run.items)[0].description).toContain('may have received and carried out this request');
	});
});

describe('a request that never reached the API may go out again', () => {
	it('a deposit whose connection was refused is retried by the node and its error says nothing was carried out', async () => {
		// Answers the token exchange, then stops listening: the deposit's connection is refused.
		let deposits = 0;
		const server = createServer((req, res) => {
			if (req.url?.endsWith('/auth')) {
				res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
				res.end(JSON.stringify({ access_token: 'token-of-a-closed-api', expires_in: 3600, token_type: 'Bearer' }));
				server.close();
				return;
			}
			deposits++;
			res.writeHead(500).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/services`;
		const run = await emulator().run(payments, { ...VALID_DEPOSIT, options: { maxRetries: 2 } } as never, { credentials: { sandboxBaseUrl: baseUrl } });
		expect(deposits).toBe(0);
		expect(run.error!.message).toBe(`Challenge Deposit could not reach the API at ${baseUrl} (connection refused)`);
		const description = (run.error as NodeApiError).description!;
		expect(description).toMatch(/^ECONNREFUSED: .* The request could not reach the API after 3 attempts\./);
		expect(description).not.toContain('may have');
	});
});

describe('the memory of sent requests is bounded', () => {
	afterEach(() => forgetSends());
	const response = { statusCode: 200, headers: {}, body: { transactionId: 'tx' } };

	it('keeps at most MAX_REMEMBERED entries, the oldest go first', () => {
		for (let i = 0; i <= MAX_REMEMBERED; i++) rememberSend(`key-${i}`, { response });
		expect(rememberedSends()).toBe(MAX_REMEMBERED);
		expect(recallSend('key-0')).toBeUndefined();
		expect(recallSend(`key-${MAX_REMEMBERED}`)).toMatchObject({ response });
	});

	it('forgets an entry after a day', () => {
		rememberSend('old', { response }, Date.now() - 24 * 60 * 60 * 1000 - 1);
		rememberSend('new', { response });
		expect(recallSend('old')).toBeUndefined();
		expect(rememberedSends()).toBe(1);
	});
});

describe('the node says what Retry On Fail does with money and messages', () => {
	it('a notice shown on exactly the operations that are not repeatable', () => {
		for (const node of [payments, phone, document]) {
			const notice = node.description.properties.find((p) => p.name === 'retryOnFailNotice')!;
			const operations = node.description.properties.find((p) => p.name === 'operation')!.options as Array<{ value: string }>;
			expect(notice.type).toBe('notice');
			expect(notice.displayName).toMatch(/Retry On Fail .* items the API accepted come back with the answer they got/);
			const shown = notice.displayOptions!.show!.operation;
			const once = { verificationPayments: ['challengeDeposit', 'initiatePayment'], verificationPhone: ['sendOtp', 'checkOtp'], verificationDocument: ['openJourney', 'addImage', 'startHostedJourney'] }[node.description.name]!;
			expect(shown).toEqual(operations.map((o) => o.value).filter((v) => once.includes(v)));
		}
	});
});

describe('receipts are kept when the node cannot use an accepted answer', () => {
	/** A handshake answer whose uiHandle was renamed: accepted (billed) but unusable. */
	const RENAMED = JSON.stringify({ transactionId: 'tx-kept-1', uiLink: 'https://journey.example/tx-kept-1', customer: SANDBOX_CUSTOMER_ID });

	async function journeys(n: number, onError?: OnError) {
		const input = items(...Array.from({ length: n }, (_, i) => ({ name: `Person ${i + 1}` })));
		return await emulator().run(
			document,
			{ operation: 'startHostedJourney', processName: 'onboarding', additionalFields: { fullName: '={{ $json.name }}' }, options: { maxConcurrentRequests: 1 } } as never,
			{ input, onError },
		);
	}

	it('the error keeps the receipt first and the redacted answer, marked "may have been carried out"', async () => {
		await emulator().configure({ failures: [{ route: HANDSHAKE, status: 200, raw: RENAMED, contentType: 'application/json' }] });
		const { error } = await journeys(1);
		expect(error!.message).toBe(
			'Start Hosted Journey got an answer that is not a JSON object with transactionId and uiHandle (HTTP 200); it may have been carried out: transactionId tx-kept-1',
		);
		const description = (error as NodeApiError).description!;
		expect(description).toContain('may have been carried out');
		expect(description).toContain('"uiLink":"https://journey.example/tx-kept-1"');
		expect(description).not.toContain(SANDBOX_CUSTOMER_ID);
	});

	it('the partial-failure list names the item with its receipt beside the accepted ones', async () => {
		await emulator().configure({ failures: [{ route: HANDSHAKE, status: 200, raw: RENAMED, contentType: 'application/json', after: 1 }] });
		const { error } = await journeys(3);
		expect(error!.message).toBe('Start Hosted Journey failed for item 2; 1 item was already accepted by the API and 1 not sent');
		const description = (error as NodeApiError).description!;
		expect(description).toMatch(/^Accepted by the API, do not send again: item 1 \(transactionId [\w-]+\)\.\n/);
		expect(description).toContain(
			'\nMay have been carried out, check with the provider before sending again: item 2 (transactionId tx-kept-1; the answer, redacted: {"transactionId":"tx-kept-1","uiLink":"https://journey.example/tx-kept-1","customer":"[redacted]"}).\n',
		);
	});

	it('with Continue On Fail the error item carries the redacted answer', async () => {
		await emulator().configure({ failures: [{ route: HANDSHAKE, status: 200, raw: RENAMED, contentType: 'application/json' }] });
		const { items: out } = await journeys(1, 'continueRegularOutput');
		expect(out[0].json.answer).toEqual({ transactionId: 'tx-kept-1', uiLink: 'https://journey.example/tx-kept-1', customer: '[redacted]' });
	});
});

/** Resolves once `check` holds, asking every 20 ms: waits on an event, never for a fixed time. */
async function until(check: () => Promise<boolean>): Promise<void> {
	while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

describe('a cancelled execution', () => {
	it('lets a deposit already on the wire finish and reports its receipt; nothing new is sent', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		await emulator().configure({ latencyMs: 600 });
		// The token exchange is answered (and counted), then the first deposit is in the emulator.
		const onTheWire = until(async () => {
			const stats = await emulator().stats();
			return stats.counts['POST /auth'] === 1 && stats.inFlight >= 1;
		});
		const run = await deposits(refs(3), { cancelWhen: onTheWire, retry: undefined });
		const recorded = await emulator().requests(DEPOSIT);
		expect(recorded.map((r) => [r.body && (r.body as IDataObject).description, r.status])).toEqual([['p-1', 200]]);
		expect(run.error!.message).toBe('The execution was cancelled during Challenge Deposit; 1 item was already accepted by the API and 2 not sent');
		const description = (run.error as NodeApiError).description!;
		expect(description).toMatch(/^Accepted by the API, do not send again: item 1 \(transactionId [\w-]+\)\.\nNot sent: item 2, item 3\./);
		// n8n keeps no node data of a stopped execution: its log keeps the receipts.
		expect(warn).toHaveBeenCalledWith(`${run.error!.message}\n${description}`, expect.objectContaining({ node: 'Payment Account Check' }));
		warn.mockRestore();
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * "May this request go out again?" at node level: items never sent under n8n's Retry On Fail, a
 * refused connection, and receipts of answers the node cannot use. Money and messages under Retry On
 * Fail with each On Error setting, and a stop while a deposit is on the wire, run in real n8n 2.x and
 * 1.x: test/e2e/resend.e2e.test.js.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, NodeApiError, OnError } from 'n8n-workflow';

import { MAX_REMEMBERED, forgetSends, recallSend, rememberSend, rememberedSends } from '../../nodes/shared/transport/sent-requests';
import { SANDBOX_CUSTOMER_ID, VALID_DEPOSIT, actionNode, items, resourceRun, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runPayments = resourceRun(emulator, 'payments');
const runDocument = resourceRun(emulator, 'document');

const HANDSHAKE = 'POST /sdk/universal/handshake';

describe('what goes out again: Retry On Fail never sends a money or message request twice, a request that never reached the API may', () => {
	it('items never sent (the token exchange failed) are sent on the next try, once each', async () => {
		await emulator().configure({ failures: [{ route: 'POST /auth', status: 0 }] });
		const input = items(...['p-1', 'p-2', 'p-3'].map((ref) => ({ ref })));
		const retry = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
		const run = await runPayments({ ...VALID_DEPOSIT, description: '={{ $json.ref }}', options: { maxRetries: 0 } } as never, { input, retry });
		expect(run.error).toBeUndefined();
		const sent = (await emulator().bodies('POST /payments/challenge-deposit')).map((b) => b.description);
		expect(sent.sort()).toEqual(['p-1', 'p-2', 'p-3']);
		expect(run.items.map((i) => i.json.description)).toEqual(['p-1', 'p-2', 'p-3']);
	});

	it("Retry On Fail gives an accepted deposit's answer again, with the evidence of its first sending: the deposit accepted on the first try keeps the times the API received it; the one refused (429) is sent on the next try", async () => {
		await emulator().configure({ failures: [{ route: 'POST /payments/challenge-deposit', status: 429, retryAfter: 0, when: { description: 'p-2' } }] });
		const input = items(...['p-1', 'p-2'].map((ref) => ({ ref })));
		const retry = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1000 };
		const run = await runPayments({ ...VALID_DEPOSIT, description: '={{ $json.ref }}', options: { maxRetries: 0 } } as never, { input, retry });
		expect(run.error).toBeUndefined();
		const received = (await emulator().requests('POST /payments/challenge-deposit')) as unknown as Array<{ body: IDataObject; status: number; receivedAt: string }>;
		const accepted = received.filter((r) => r.status === 200);
		expect(accepted.map((r) => r.body.description)).toEqual(['p-1', 'p-2']);
		// Each item's evidence says when its accepted deposit left: within the emulator's own clock reading, not a second later.
		run.evidence.forEach((evidence, i) => {
			const drift = Date.parse(evidence!.requestedAt as string) - Date.parse(accepted[i].receivedAt);
			expect([i, Math.abs(drift) < 500]).toEqual([i, true]);
		});
	});

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
		const run = await runPayments({ ...VALID_DEPOSIT, options: { maxRetries: 2 } } as never, { credentials: { sandboxBaseUrl: baseUrl } });
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
		const notices = actionNode.description.properties.filter((p) => p.name === 'retryOnFailNotice');
		for (const notice of notices) {
			expect(notice.type).toBe('notice');
			expect(notice.displayName).toMatch(/Retry On Fail .* items the API accepted come back with the answer they got/);
		}
		expect(Object.fromEntries(notices.map((n) => [n.displayOptions!.show!.resource![0], n.displayOptions!.show!.operation]))).toEqual({
			payments: ['challengeDeposit', 'initiatePayment'],
			document: ['openJourney', 'addImage', 'startHostedJourney'],
			phone: ['sendOtp', 'checkOtp'],
			qes: ['createSessionLink'],
		});
	});
});

describe('receipts are kept when the node cannot use an accepted answer', () => {
	/** A handshake answer whose uiHandle was renamed: accepted (billed) but unusable. */
	const RENAMED = JSON.stringify({ transactionId: 'tx-kept-1', uiLink: 'https://journey.example/tx-kept-1', customer: SANDBOX_CUSTOMER_ID });

	async function journeys(n: number, onError?: OnError) {
		const input = items(...Array.from({ length: n }, (_, i) => ({ name: `Person ${i + 1}` })));
		return await runDocument(
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

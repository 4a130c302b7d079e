/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { createHmac } from 'node:crypto';
import { PassThrough } from 'node:stream';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VerificationServicesWebhookApi } from '../../credentials/VerificationServicesWebhookApi.credentials';
import { forgetDeliveries, STARTED_RESPONSE } from '../../nodes/shared/delivery/delivery-memory';
import { PAYMENT_STATUSES, paymentOutcome } from '../../nodes/shared/responses/payment-outcome';
import { MAX_BODY_BYTES, parseDeliveryBody, readDeliveryBody } from '../../nodes/VerificationServicesTrigger/signedResult/delivery-body';
import { resultIdentity, resultTypeOf } from '../../nodes/VerificationServicesTrigger/signedResult/recognise';
import { cachedSecret, forgetSecrets, SECRET_TTL_MS } from '../../nodes/VerificationServicesTrigger/signedResult/secret-cache';
import { checkSigningSecret } from '../../nodes/VerificationServicesTrigger/signedResult/secret-check';
import { signatureMatches, signatureOf } from '../../nodes/VerificationServicesTrigger/signedResult/signature';
import { VerificationServicesTrigger } from '../../nodes/VerificationServicesTrigger/VerificationServicesTrigger.node';
import { resourceRun, useSandbox } from '../helpers/sandbox';
import { runWebhook, runWebhookMethod, started, type RunWebhookResult } from '../helpers/n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const signedResults = require('../../sandbox/signed-results') as {
	journeyResult: (fields?: IDataObject) => IDataObject;
	paymentResult: (fields?: IDataObject) => IDataObject;
};

const SECRET = 'whsec-unit-7f3a9c1e5b2d4f60';

const hmacHex = (secret: string, body: string | Buffer) => createHmac('sha256', secret).update(body).digest('hex');

describe('Signed results trigger: signature check', () => {
	const body = Buffer.from(JSON.stringify(signedResults.journeyResult({ transactionId: 'tx-sig' })));

	it('never matches with an empty secret, even against the HMAC made with an empty key', () => {
		expect(signatureMatches(body, hmacHex('', body), '')).toBe(false);
	});

	it('reads only a single string Signature header', () => {
		expect(signatureOf({ signature: 'abc' })).toBe('abc');
		expect(signatureOf({ signature: ['abc', 'abc'] })).toBeUndefined();
		expect(signatureOf({ 'x-signature': 'abc' })).toBeUndefined();
	});
});

describe('Signed results trigger: body reading and parsing', () => {
	it('refuses by Content-Length before reading, by size after reading, and over n8n\'s own limit', async () => {
		const readRawBody = jest.fn(async () => {});
		expect(await readDeliveryBody({ headers: { 'content-length': String(MAX_BODY_BYTES + 1) }, readRawBody })).toEqual({ tooLarge: true });
		expect(readRawBody).not.toHaveBeenCalled();

		expect(await readDeliveryBody({ headers: {}, rawBody: Buffer.alloc(MAX_BODY_BYTES + 1) })).toEqual({ tooLarge: true });
		const exact = await readDeliveryBody({ headers: {}, rawBody: Buffer.alloc(MAX_BODY_BYTES, 0x20) });
		expect('bytes' in exact && exact.bytes.length).toBe(MAX_BODY_BYTES);

		const overN8nLimit = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });
		expect(await readDeliveryBody({ headers: {}, readRawBody: async () => await Promise.reject(overN8nLimit) })).toEqual({ tooLarge: true });
		const aborted = Object.assign(new Error('aborted'), { type: 'request.aborted' });
		expect(await readDeliveryBody({ headers: {}, readRawBody: async () => await Promise.reject(aborted) })).toEqual({ unreadable: true });
	});

	it('reads off the rest of a body it refuses, so the sender gets the 413 instead of a reset', async () => {
		const stream = Object.assign(new PassThrough(), { headers: { 'content-length': String(MAX_BODY_BYTES + 10) } });
		const chunks = [Buffer.alloc(MAX_BODY_BYTES), Buffer.alloc(10)];
		const refused = readDeliveryBody(stream);
		for (const chunk of chunks) stream.write(chunk);
		stream.end();
		expect(await refused).toEqual({ tooLarge: true });
		expect(stream.readableEnded).toBe(true);
	});

	it('reads the body n8n left unread', async () => {
		const req: { headers: IDataObject; rawBody?: Buffer; readRawBody: () => Promise<void> } = {
			headers: {},
			readRawBody: async () => {
				req.rawBody = Buffer.from('{"a":1}');
			},
		};
		expect(await readDeliveryBody(req)).toEqual({ bytes: Buffer.from('{"a":1}') });
	});

	it('text/plain stays the raw string; JSON is parsed (BOM ignored); what is not JSON stays text', () => {
		expect(parseDeliveryBody(Buffer.from('{"a":1}'), 'text/plain; charset=utf-8')).toEqual({ text: '{"a":1}', encrypted: true });
		expect(parseDeliveryBody(Buffer.from('\ufeff{"a":1}'), 'application/json')).toEqual({ json: { a: 1 } });
		expect(parseDeliveryBody(Buffer.from('{"a":'), 'application/json')).toEqual({ text: '{"a":', encrypted: false });
		expect(parseDeliveryBody(Buffer.from('[1,2]'), undefined)).toEqual({ json: [1, 2] });
	});
});

describe('Signed results trigger: what a delivery is', () => {
	it.each([
		['the emulator\'s journey result', signedResults.journeyResult(), 'journeyResult'],
		['a verdict alone', { success: 'review' }, 'journeyResult'],
		['journeySummary alone', { journeySummary: {} }, 'journeyResult'],
		['a verdict inside generalTransactionData', { generalTransactionData: { success: 'FLAG' } }, 'journeyResult'],
		['an enveloped journey result', { status: true, data: { transactionId: 't', status: 'processing' } }, 'journeyResult'],
		['a transactionId with a journey status', { transactionId: 't', status: 'aborted' }, 'journeyResult'],
		['the emulator\'s payment result', signedResults.paymentResult(), 'paymentResult'],
		['a payment-only status', { status: 'FAILURE_DECLINED' }, 'paymentResult'],
		['PROCESSING with a referenceId', { referenceId: 'r', status: 'PROCESSING' }, 'paymentResult'],
		['an enveloped payment status', { status: true, data: { status: 'SETTLEMENT_COMPLETED' } }, 'paymentResult'],
		['snake_case twins of a journey result', { transaction_id: 't', status: 'aborted' }, 'journeyResult'],
		['journey_summary', { journey_summary: {} }, 'journeyResult'],
		['snake_case twins of a payment result', { reference_id: 'r', status: 'PROCESSING' }, 'paymentResult'],
		['PROCESSING alone (either kind)', { status: 'PROCESSING' }, 'unrecognised'],
		['an unknown status', { transactionId: 't', status: 'done' }, 'unrecognised'],
		['a status the list does not name, with the payment\'s referenceId', { referenceId: 'r', status: 'REFUNDED' }, 'paymentResult'],
		['a new FAILURE_ status with a statusReasonInformation', { status: 'FAILURE_ACCOUNT_CLOSED', statusReasonInformation: 'closed' }, 'paymentResult'],
		['an enveloped new status with a requestId', { status: true, data: { requestId: 'q', status: 'CHARGED_BACK' } }, 'paymentResult'],
		['an array', [1, 2], 'unrecognised'],
		['a string', 'text', 'unrecognised'],
	])('%s', (_, body, type) => {
		expect(resultTypeOf(body)).toBe(type);
	});

	it('a result is identified by kind, id, status and verdict, whatever else changes', () => {
		const first = signedResults.journeyResult({ transactionId: 'tx-1' });
		const resend = { ...first, timestamp: '2030-01-01T00:00:00.000Z' };
		expect(resultIdentity(resend, 'journeyResult')).toEqual(resultIdentity(first, 'journeyResult'));
		expect(resultIdentity(first, 'journeyResult')).toEqual(['journeyResult', 'tx-1', 'complete', 'PASS']);
		expect(resultIdentity({ ...first, success: 'DECLINE' }, 'journeyResult')).not.toEqual(resultIdentity(first, 'journeyResult'));
		expect(resultIdentity({ referenceId: 'r', status: 'SUCCESS' }, 'paymentResult')).toEqual(['paymentResult', 'r', 'success', '']);
		expect(resultIdentity({ status: 'SUCCESS' }, 'paymentResult')).toBeUndefined();
		expect(resultIdentity({ transaction_id: 'tx-1', status: 'complete', success: 'PASS' }, 'journeyResult')).toEqual(['journeyResult', 'tx-1', 'complete', 'PASS']);
	});

	it('maps every documented payment status to its outcome; unknown ones stay pending', () => {
		const failures = ['GENERIC', 'PERMISSION_DENIED', 'CANCELED', 'EXPIRED', 'INSUFFICIENT_FUNDS', 'DECLINED'];
		const documented = {
			succeeded: ['SUCCESS', 'COMPLETED', 'SETTLEMENT_COMPLETED'],
			failed: ['FAILED', ...failures.map((why) => `FAILURE_${why}`), 'SETTLEMENT_INCOMPLETE'],
			pending: ['PROCESSING', 'INITIATED', 'PENDING', 'PENDING_EXTERNAL_AUTHORIZATION', 'SETTLEMENT_IN_PROGRESS'],
		};
		expect(Object.fromEntries(PAYMENT_STATUSES.map((status) => [status, paymentOutcome(status)]))).toEqual(
			Object.fromEntries(Object.entries(documented).flatMap(([outcome, statuses]) => statuses.map((status) => [status, outcome]))),
		);
		expect(paymentOutcome(' success ')).toBe('succeeded');
		expect(paymentOutcome('FAILURE_NEW_REASON')).toBe('failed');
		expect(paymentOutcome('SOMETHING_NEW')).toBe('pending');
		expect(paymentOutcome(undefined)).toBe('pending');
	});
});

describe('Signed results trigger: signing secret cache', () => {
	beforeEach(() => forgetSecrets());

	it('copies arriving together share one credential read; the secret is read again after the TTL', async () => {
		let reads = 0;
		const read = async () => {
			reads++;
			return SECRET;
		};
		const now = Date.now();
		expect(await Promise.all(Array.from({ length: 20 }, async () => await cachedSecret('cred-1', read, now)))).toEqual(Array(20).fill(SECRET));
		expect(reads).toBe(1);
		await cachedSecret('cred-1', read, now + SECRET_TTL_MS - 1);
		expect(reads).toBe(1);
		await cachedSecret('cred-1', read, now + SECRET_TTL_MS);
		expect(reads).toBe(2);
		await cachedSecret('cred-2', read, now);
		expect(reads).toBe(3);
	});

	it('an unreadable credential is not kept: the next delivery reads it again', async () => {
		const read = jest.fn(async () => '');
		await cachedSecret('cred-3', read);
		await cachedSecret('cred-3', read);
		expect(read).toHaveBeenCalledTimes(2);
	});
});

describe('Signed results trigger in n8n', () => {
	const node = new VerificationServicesTrigger();
	const setup = (parameters: INodeParameters = {}, signingSecret: string = SECRET) => ({
		node,
		parameters: { source: 'signedResult', ...parameters },
		credentials: { verificationServicesWebhookApi: { signingSecret } },
		credentialTypes: [new VerificationServicesWebhookApi()],
	});

	let staticData: IDataObject;
	beforeEach(() => {
		forgetDeliveries();
		forgetSecrets();
		staticData = {};
	});

	/** Delivers `body` signed with `secret` (a string body is sent as it is). */
	async function deliver(
		body: unknown,
		{ parameters = {}, secret = SECRET, contentType = 'application/json', signature, mode, from = staticData }: {
			parameters?: INodeParameters;
			secret?: string;
			contentType?: string;
			signature?: string;
			mode?: 'webhook' | 'manual';
			from?: IDataObject;
		} = {},
	): Promise<RunWebhookResult> {
		const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
		return await runWebhook({
			...setup(parameters),
			staticData: from,
			mode,
			request: { headers: { 'content-type': contentType, signature: signature ?? hmacHex(secret, rawBody) }, rawBody },
		});
	}

	const notStartedBecause = (result: RunWebhookResult) =>
		result.response?.workflowData === undefined ? (result.response?.webhookResponse as IDataObject | undefined)?.reason : 'started';

	it('an enveloped or snake_case verdict is copied to success; keys the delivery already has are kept', async () => {
		const [enveloped] = started(await deliver({ status: true, data: { transactionId: 'tx-env', status: 'complete', success: 'PASS', customerId: 'c1' } }));
		expect(enveloped).toMatchObject({ status: true, success: 'PASS', resultType: 'journeyResult', data: { customerId: '[redacted]' } });
		const [snake] = started(await deliver({ transaction_id: 'tx-snake', status: 'complete', customer_id: 'c2', general_transaction_data: { success: 'FLAG' } }));
		expect(snake).toMatchObject({ transaction_id: 'tx-snake', customer_id: '[redacted]', success: 'FLAG', resultType: 'journeyResult' });
		const [clash] = started(await deliver({ referenceId: 'ref-2', status: 'SUCCESS', paymentOutcome: 'theirs', resultType: 'theirs' }));
		expect(clash).toMatchObject({ paymentOutcome: 'theirs', resultType: 'theirs', triggerPaymentOutcome: 'succeeded', triggerResultType: 'paymentResult' });
	});

	it('a credential without a usable secret refuses every delivery and says so in the log, without any secret', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		const body = JSON.stringify(signedResults.journeyResult());
		const result = await runWebhook({
			...setup({}, ' '),
			staticData,
			request: { headers: { 'content-type': 'application/json', signature: hmacHex(' ', body) }, rawBody: body },
		});
		expect(result.res.statusCode).toBe(401);
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('starts or ends with a space'));
		warn.mockRestore();
	});

	it('signed, declared JSON, but not JSON: passed on as text, as neither kind, whatever Events says', async () => {
		const [broken] = started(await deliver('{"transactionId":"tx-cut'));
		expect(broken).toEqual({ body: '{"transactionId":"tx-cut', resultType: 'unrecognised' });
		expect(notStartedBecause(await deliver('{"transactionId":"tx-cut2', { parameters: { events: 'journeyResult' } }))).toBe('started');
	});

	it('Events holds back only the other kind; what cannot be told apart (encrypted, unrecognised) passes', async () => {
		const journeysOnly = { events: 'journeyResult' };
		const paymentsOnly = { events: 'paymentResult' };
		expect(notStartedBecause(await deliver(signedResults.paymentResult(), { parameters: journeysOnly }))).toBe('not in Events');
		expect(notStartedBecause(await deliver(signedResults.journeyResult(), { parameters: paymentsOnly }))).toBe('not in Events');
		expect(notStartedBecause(await deliver({ something: 'else' }, { parameters: journeysOnly }))).toBe('started');
		expect(notStartedBecause(await deliver({ something: 'other' }, { parameters: paymentsOnly }))).toBe('started');
		expect(notStartedBecause(await deliver(signedResults.journeyResult(), { parameters: journeysOnly }))).toBe('started');
		expect(notStartedBecause(await deliver('cipher', { parameters: { events: 'paymentResult' }, contentType: 'text/plain' }))).toBe('started');
		expect(notStartedBecause(await deliver({ something: 'more' }))).toBe('started');
	});

	describe('duplicates', () => {
		const result = signedResults.journeyResult({ transactionId: 'tx-dup', status: 'complete', success: 'PASS' });

		it('the same body re-encoded is a duplicate; another status or verdict of the transaction is a new result', async () => {
			// 6 resends one after another, and one with a new timestamp: webhook-trigger.e2e.test.js, in a running n8n.
			expect(notStartedBecause(await deliver(result))).toBe('started');
			expect(notStartedBecause(await deliver(JSON.stringify(result, null, 2)))).toBe('duplicate');
			expect(notStartedBecause(await deliver({ ...result, success: 'REVIEW' }))).toBe('started');
		});

		it('nothing is written to static data', async () => {
			const first = await deliver(result);
			expect(notStartedBecause(first)).toBe('started');
			expect(first.staticData).toEqual({});
			expect((await deliver({ ...result, success: 'FLAG' })).staticData).toEqual({});
		});

		it('a signed body whose own timestamp is older than 25 hours is refused with 400 and not remembered; one within 25 hours starts', async () => {
			const old = { ...result, transactionId: 'tx-old', timestamp: new Date(Date.now() - 30 * 86_400_000).toISOString() };
			const refused = await deliver(old);
			expect(refused.res).toMatchObject({ statusCode: 400, ended: true });
			expect(started(refused)).toEqual([]);
			const enveloped = { status: true, data: { ...old, timestamp: undefined, generalTransactionData: { timestamp: old.timestamp, success: 'PASS' } } };
			expect((await deliver(enveloped)).res.statusCode).toBe(400);
			const lastRetry = await deliver({ ...old, timestamp: new Date(Date.now() - 24 * 3_600_000).toISOString() });
			expect([lastRetry.res.statusCode, notStartedBecause(lastRetry)]).toEqual([200, 'started']);
			// A longer Ignore Duplicates Within widens the window with it.
			const sixDays = { ...old, success: 'FLAG', timestamp: new Date(Date.now() - 6 * 86_400_000).toISOString() };
			expect((await deliver(sixDays)).res.statusCode).toBe(400);
			expect(notStartedBecause(await deliver(sixDays, { parameters: { dedupMinutes: 60 * 24 * 7 } }))).toBe('started');
		});

		it('0 minutes turns the check off; test events are never held back', async () => {
			const off = { dedupMinutes: 0 };
			const twice = [await deliver(result, { parameters: off }), await deliver(result, { parameters: off })];
			expect(twice.map(notStartedBecause)).toEqual(['started', 'started']);
			const tests = [await deliver(result, { mode: 'manual' }), await deliver(result, { mode: 'manual' })];
			expect(tests.map(notStartedBecause)).toEqual(['started', 'started']);
		});
	});

	it('activation refuses a credential whose secret could never match; the credential test says the same', async () => {
		const ok = await runWebhookMethod({ ...setup(), method: 'create' });
		expect(ok.result).toBe(true);
		const empty = await runWebhookMethod({ ...setup({}, ''), method: 'create' });
		expect(empty.error?.message).toMatch(/Enter the webhook secret/);
		expect(checkSigningSecret(`${SECRET}\n`)).toMatchObject({ status: 'Error' });
		const tested = checkSigningSecret(SECRET);
		expect(tested.status).toBe('OK');
		expect(tested.message).not.toContain(SECRET);
	});
});

describe('Signed results trigger: Unsigned Payment Results', () => {
	const sandbox = useSandbox();
	const node = new VerificationServicesTrigger();
	const runPayments = resourceRun(sandbox, 'payments');
	const STATUS_ROUTE = 'POST /payments/status';

	beforeEach(() => {
		forgetDeliveries();
		forgetSecrets();
	});

	/** A payment the emulator knows, moved to `status` without a delivery. */
	async function payment(referenceId: string, status: string) {
		const initiate = { operation: 'initiatePayment', referenceId, transactionDescription: 'Order', returnUrl: 'https://shop.example/back', IBAN: 'DE89370400440532013000', currency: 'EUR', amount: '49.90' };
		expect((await runPayments(initiate)).error).toBeUndefined();
		expect((await sandbox().control.post(`/payments/${referenceId}/status`, { status, deliver: false })).status).toBe(200);
	}

	async function deliverUnsigned(body: unknown, parameters: INodeParameters = { unsignedPayments: 'confirm' }, headers: Record<string, string> = {}) {
		const rawBody = JSON.stringify(body);
		return await runWebhook({
			node,
			parameters: { source: 'signedResult', ...parameters },
			credentials: { verificationServicesWebhookApi: { signingSecret: SECRET }, verificationServicesApi: sandbox().credentials },
			credentialTypes: [new VerificationServicesWebhookApi(), ...sandbox().credentialTypes],
			request: { headers: { 'content-type': 'application/json', ...headers }, rawBody },
		});
	}

	it('by default an unsigned payment result is answered 401 and nothing is asked of the API', async () => {
		await payment('ref-default', 'SUCCESS');
		const result = await deliverUnsigned({ referenceId: 'ref-default', status: 'SUCCESS' }, {});
		expect(result.res).toMatchObject({ statusCode: 401, body: { message: 'Unauthorized' } });
		expect(started(result)).toEqual([]);
		expect(await sandbox().count(STATUS_ROUTE)).toBe(0);
	});

	it('Confirm With the API: starts with what Get Payment Status answers, never with what the body claims', async () => {
		await payment('ref-declined', 'FAILURE_DECLINED');
		const result = await deliverUnsigned({ referenceId: 'ref-declined', status: 'SUCCESS', paymentOutcome: 'succeeded', amount: '1000000.00' });
		const [item] = started(result);
		expect(item).toMatchObject({ referenceId: 'ref-declined', status: 'FAILURE_DECLINED', paymentOutcome: 'failed', resultType: 'paymentResult', signed: false });
		expect(item.amount).toBeUndefined();
		expect(result.response?.webhookResponse).toEqual(STARTED_RESPONSE);
		expect(await sandbox().count(STATUS_ROUTE)).toBe(1);
		// Its copy is a duplicate; a signed result of the same payment and status too.
		expect((await deliverUnsigned({ referenceId: 'ref-declined' })).response?.webhookResponse).toMatchObject({ reason: 'duplicate' });
		const signed = { referenceId: 'ref-declined', status: 'FAILURE_DECLINED', statusReasonInformation: 'x' };
		const signedCopy = await deliverUnsigned(signed, undefined, { signature: hmacHex(SECRET, JSON.stringify(signed)) });
		expect(signedCopy.response?.webhookResponse).toMatchObject({ reason: 'duplicate' });
	});

	it('a payment the API does not know, a body without referenceId, or a wrong signature: 401, nothing starts', async () => {
		expect((await deliverUnsigned({ referenceId: 'ref-unknown', status: 'SUCCESS' })).res.statusCode).toBe(401);
		expect((await deliverUnsigned({ transactionId: 'tx', status: 'complete', success: 'PASS' })).res.statusCode).toBe(401);
		await payment('ref-forged', 'SUCCESS');
		const forged = await deliverUnsigned({ referenceId: 'ref-forged', status: 'SUCCESS' }, undefined, { signature: 'f'.repeat(64) });
		expect(forged.res.statusCode).toBe(401);
		expect(await sandbox().count(STATUS_ROUTE)).toBe(1);
	});

	it('the API failing for now (503): answered 503 so the provider resends; the resend starts', async () => {
		await payment('ref-later', 'SETTLEMENT_COMPLETED');
		await sandbox().configure({ failures: [{ route: STATUS_ROUTE, status: 503 }] });
		const first = await deliverUnsigned({ referenceId: 'ref-later' });
		expect(first.res.statusCode).toBe(503);
		expect(started(first)).toEqual([]);
		const [item] = started(await deliverUnsigned({ referenceId: 'ref-later' }));
		expect(item).toMatchObject({ status: 'SETTLEMENT_COMPLETED', paymentOutcome: 'succeeded' });
	});
});

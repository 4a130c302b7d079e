/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import axios, { type AxiosInstance } from 'axios';
import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SANDBOX_CUSTOMER_ID, useSandbox } from '../helpers/sandbox';

/**
 * The emulator's signed results as the provider sends them, and its hosted flows refusing what the
 * API refuses (the handshake's fields, a second payment with the same referenceId, an unknown one).
 * Their signed results reaching a trigger are run end to end by hosted-flows.e2e.
 */

const SECRET = 'whsec-emulator-test';

/** What the receiver got, and how it answers: a list of [status, delay ms] used in turn (the last one repeats). */
interface Receiver {
	url: string;
	received: { headers: IncomingHttpHeaders; body: Buffer }[];
	answers: [number, number][];
	close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
	const receiver = { received: [], answers: [[200, 0]] } as unknown as Receiver;
	const pending = new Set<NodeJS.Timeout>();
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks) });
			const [status, delay] = receiver.answers[Math.min(receiver.received.length - 1, receiver.answers.length - 1)];
			const timer = setTimeout(() => {
				pending.delete(timer);
				res.writeHead(status, { 'content-type': 'application/json' }).end('{"seen":true}');
			}, delay);
			pending.add(timer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/results`;
	receiver.close = async () => {
		for (const timer of pending) clearTimeout(timer);
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	};
	return receiver;
}

const emulator = useSandbox();
const control = () => emulator().control;
let api: AxiosInstance;
let receiver: Receiver;

beforeAll(async () => {
	api = axios.create({ baseURL: emulator().baseUrl, headers: { Authorization: `Bearer ${await emulator().token()}` }, validateStatus: () => true });
});

beforeEach(async () => {
	receiver = await startReceiver();
	expect((await control().post('/results/webhook', { url: receiver.url, signingSecret: SECRET })).status).toBe(200);
	expect((await control().post('/config', { resultDelivery: { timeScale: 0.0001 } })).status).toBe(200);
});

afterEach(async () => {
	await receiver.close();
});

const hmacHex = (body: Buffer) => createHmac('sha256', SECRET).update(body).digest('hex');

describe('emulator: signed results as the provider sends them', () => {
	it('signs the exact bytes it sends, with the provider\'s User-Agent; a journey result carries the documented fields', async () => {
		const res = await control().post('/results/journey', { transactionId: 'tx-1', success: 'FLAG' });
		expect(res.status).toBe(200);
		const [got] = receiver.received;
		expect(got.headers.signature).toBe(hmacHex(got.body));
		expect(got.headers['user-agent']).toBe('signteq.io API');
		expect(got.headers['content-type']).toBe('application/json');
		const body = JSON.parse(got.body.toString());
		expect(body).toMatchObject({ transactionId: 'tx-1', status: 'complete', success: 'FLAG', generalTransactionData: { status: 'complete', success: 'FLAG' } });
		expect(res.data.delivery).toMatchObject({ delivered: true, done: true, sha256: createHash('sha256').update(got.body).digest('hex') });
	});

	it('resends when the answer is slower than answerTimeoutMs', async () => {
		await control().post('/config', { resultDelivery: { answerTimeoutMs: 300 } });
		receiver.answers = [[200, 2000], [200, 0]];
		const { delivery } = (await control().post('/results/journey', {})).data;
		expect(delivery.attempts).toHaveLength(2);
		expect(delivery.attempts[0]).toMatchObject({ status: null, error: 'Webhook did not answer within 300 ms' });
		expect(delivery.attempts[1]).toMatchObject({ status: 200 });
	});

	it('encrypt sends the result as signed text/plain that the documented stand-in scheme opens', async () => {
		const { payload } = (await control().post('/results/payment', { referenceId: 'ref-enc', encrypt: true })).data;
		const [got] = receiver.received;
		expect(got.headers['content-type']).toBe('text/plain');
		expect(got.headers.signature).toBe(hmacHex(got.body));
		const sealed = Buffer.from(got.body.toString(), 'base64');
		const decipher = createDecipheriv('aes-256-gcm', createHash('sha256').update(SECRET).digest(), sealed.subarray(0, 12));
		decipher.setAuthTag(sealed.subarray(12, 28));
		const opened = Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString();
		expect(JSON.parse(opened)).toEqual(payload);
	});
});

const handshake = async (body: object = {}) =>
	await api.post('/sdk/universal/handshake', { journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' }, ...body });

const PAYMENT = { referenceId: 'order-1', transactionDescription: 'Order 1', returnUrl: 'https://shop.example/done', IBAN: 'DE89370400440532013000', currency: 'EUR', amount: '10.00' };

describe('emulator: hosted identity journey', () => {
	it('without a registered URL only the journey changes; an unknown journey or verdict is refused', async () => {
		await control().post('/reset');
		const { transaction_id: transactionId } = (await handshake()).data;
		const done = await control().post(`/hosted-journeys/${transactionId}/complete`, { success: 'REVIEW', status: 'closed' });
		expect(done.data).toMatchObject({ journey: { status: 'closed', success: 'REVIEW' }, delivery: null });
		expect((await control().post('/hosted-journeys/nope/complete', {})).status).toBe(404);
		expect((await control().post(`/hosted-journeys/${transactionId}/complete`, { success: 'OK' })).status).toBe(400);
		expect(receiver.received).toEqual([]);
	});

	it.each([
		[{ journey: { customerId: 'c0ffee00-0000-4000-8000-000000000000', processName: 'x' } }, 403, 'journey.customerId does not belong to this access token'],
		[{ journey: { customerId: SANDBOX_CUSTOMER_ID } }, 400, 'journey.processName is required'],
		[{ validationData: { iban: 'DE88370400440532013000' } }, 400, 'validationData.iban must be an IBAN'],
		[{ validationData: { DOB: '1964-08-12' } }, 400, 'validationData.DOB must be a date as YYYY/MM/DD'],
		[{ steps: [{ id: 's', type: 'documentVerification', configuration: { permittedDocuments: [{ idType: 'visa' }] } }] }, 400, 'steps[0].configuration.permittedDocuments[0].idType must be one of'],
	])('the handshake refuses %j', async (body, status, message) => {
		const res = await handshake(body);
		expect(res.status).toBe(status);
		expect(res.data.message).toContain(message);
	});
});

describe('emulator: payments by bank', () => {
	it('answers both generations\' shapes, refuses a second payment with the same referenceId and an unknown one', async () => {
		await control().post('/config', { generation: 'g3' });
		const started = await api.post('/payments/initiate', PAYMENT);
		expect(started.data).toEqual({ status: true, data: { requestId: expect.any(String), redirectUrl: expect.stringContaining('/pay/') } });
		expect((await api.post('/payments/status', { referenceId: 'order-1' })).data).toEqual({ status: true, data: { status: 'INITIATED', statusReasonInformation: 'Waiting for the payer' } });
		expect((await api.post('/payments/initiate', PAYMENT)).status).toBe(409);
		expect((await api.post('/payments/status', { referenceId: 'order-2' })).status).toBe(404);
		const g3Journey = (await handshake()).data;
		expect(g3Journey).toEqual({ status: true, data: { transactionId: expect.any(String), uiHandle: expect.stringContaining('/journey/') } });
	});
});

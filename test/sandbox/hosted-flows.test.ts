/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import axios, { type AxiosInstance } from 'axios';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');

/**
 * The emulator's hosted flows refuse what the API refuses (the handshake's fields, a second payment
 * with the same referenceId, an unknown one). Their signed results reaching a trigger are run end to
 * end by hosted-flows.e2e.
 */

const SECRET = 'whsec-hosted-flows';

let sandbox: { url: string; baseUrl: string; close(): Promise<void> };
let control: AxiosInstance;
let api: AxiosInstance;
let receiver: Server;
let received: { signature: string; body: Buffer }[];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	control = axios.create({ baseURL: `${sandbox.url}/__control`, validateStatus: () => true });
	const auth = await axios.post(`${sandbox.baseUrl}/auth`, '', { headers: { 'Api-Key': SANDBOX_API_KEY, 'Customer-Id': SANDBOX_CUSTOMER_ID } });
	api = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${auth.data.access_token}` }, validateStatus: () => true });
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ signature: String(req.headers.signature), body: Buffer.concat(chunks) });
			res.writeHead(200).end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	receiver.closeAllConnections();
	await new Promise((resolve) => receiver.close(resolve));
	await sandbox.close();
});

beforeEach(async () => {
	received = [];
	await control.post('/reset');
	await control.post('/results/webhook', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/results`, signingSecret: SECRET });
});

const handshake = async (body: object = {}) =>
	await api.post('/sdk/universal/handshake', { journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' }, ...body });

const PAYMENT = { referenceId: 'order-1', transactionDescription: 'Order 1', returnUrl: 'https://shop.example/done', IBAN: 'DE89370400440532013000', currency: 'EUR', amount: '10.00' };

describe('emulator: hosted identity journey', () => {
	it('without a registered URL only the journey changes; an unknown journey or verdict is refused', async () => {
		await control.post('/reset');
		const { transaction_id: transactionId } = (await handshake()).data;
		const done = await control.post(`/hosted-journeys/${transactionId}/complete`, { success: 'REVIEW', status: 'closed' });
		expect(done.data).toMatchObject({ journey: { status: 'closed', success: 'REVIEW' }, delivery: null });
		expect((await control.post('/hosted-journeys/nope/complete', {})).status).toBe(404);
		expect((await control.post(`/hosted-journeys/${transactionId}/complete`, { success: 'OK' })).status).toBe(400);
		expect(received).toEqual([]);
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
		await control.post('/config', { generation: 'g3' });
		const started = await api.post('/payments/initiate', PAYMENT);
		expect(started.data).toEqual({ status: true, data: { requestId: expect.any(String), redirectUrl: expect.stringContaining('/pay/') } });
		expect((await api.post('/payments/status', { referenceId: 'order-1' })).data).toEqual({ status: true, data: { status: 'INITIATED', statusReasonInformation: 'Waiting for the payer' } });
		expect((await api.post('/payments/initiate', PAYMENT)).status).toBe(409);
		expect((await api.post('/payments/status', { referenceId: 'order-2' })).status).toBe(404);
		const g3Journey = (await handshake()).data;
		expect(g3Journey).toEqual({ status: true, data: { transactionId: expect.any(String), uiHandle: expect.stringContaining('/journey/') } });
	});
});

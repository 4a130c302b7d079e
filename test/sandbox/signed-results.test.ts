/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import axios, { type AxiosInstance } from 'axios';
import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');

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

let sandbox: { url: string; close(): Promise<void> };
let control: AxiosInstance;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox();
	control = axios.create({ baseURL: `${sandbox.url}/__control`, validateStatus: () => true });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(async () => {
	expect((await control.post('/reset')).status).toBe(200);
	receiver = await startReceiver();
	expect((await control.post('/results/webhook', { url: receiver.url, signingSecret: SECRET })).status).toBe(200);
	expect((await control.post('/config', { resultDelivery: { timeScale: 0.0001 } })).status).toBe(200);
});

afterEach(async () => {
	await receiver.close();
});

const hmacHex = (body: Buffer) => createHmac('sha256', SECRET).update(body).digest('hex');

describe('emulator: signed results as the provider sends them', () => {
	it('signs the exact bytes it sends, with the provider\'s User-Agent; a journey result carries the documented fields', async () => {
		const res = await control.post('/results/journey', { transactionId: 'tx-1', success: 'FLAG' });
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
		await control.post('/config', { resultDelivery: { answerTimeoutMs: 300 } });
		receiver.answers = [[200, 2000], [200, 0]];
		const { delivery } = (await control.post('/results/journey', {})).data;
		expect(delivery.attempts).toHaveLength(2);
		expect(delivery.attempts[0]).toMatchObject({ status: null, error: 'Webhook did not answer within 300 ms' });
		expect(delivery.attempts[1]).toMatchObject({ status: 200 });
	});

	it('encrypt sends the result as signed text/plain that the documented stand-in scheme opens', async () => {
		const { payload } = (await control.post('/results/payment', { referenceId: 'ref-enc', encrypt: true })).data;
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

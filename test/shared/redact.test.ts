/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { REDACTED, Redactor } from '../../nodes/shared/transport/redact';
import { exchangeToken } from '../../nodes/shared/transport/token-exchange';

const KEY = '4f8a4d52-5b8e-4c7e-9a41-0c1d2e3f4a5b';
const SECRET = 'p@ss word/with+chars';

describe('Redactor', () => {
	const redactor = new Redactor([KEY, SECRET, 'ab', undefined, { 'X-Hook': 'hook-secret-1' }]);

	it.each([
		['plain', `key=${KEY}`],
		['JSON-escaped', JSON.stringify({ said: `x "${SECRET}" y` })],
		['URL-encoded', `q=${encodeURIComponent(SECRET)}`],
		['form-encoded', `q=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`],
		['base64', Buffer.from(KEY).toString('base64')],
		['a header object value', 'hook-secret-1'],
	])('cuts the %s form out of text', (_, text) => {
		const out = redactor.text(text);
		expect(out).toContain(REDACTED);
		for (const secret of [KEY, SECRET, 'hook-secret-1', encodeURIComponent(SECRET)]) expect(out).not.toContain(secret);
	});

	it('leaves too-short values and ordinary text alone', () => {
		expect(redactor.text('ab cd HTTP 400')).toBe('ab cd HTTP 400');
	});

	it('redacts a NodeApiError in place: message, description, stored body, messages, stack', () => {
		const node = { name: 'n', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;
		const error = new NodeApiError(node, { message: `echo ${KEY}`, nested: { deep: [SECRET] } } as unknown as JsonObject, {
			message: `failed: ${KEY}`,
			description: `see ${SECRET}`,
		});
		const same = redactor.error(error);
		expect(same).toBe(error);
		const all = JSON.stringify([error.message, error.description, error.stack, error.messages, error.errorResponse, error.cause, error.context]);
		expect(all).not.toContain(KEY);
		expect(all).not.toContain(SECRET);
	});
});

describe('token lifetime', () => {
	const jwt = (claims: object) =>
		`e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
	const exchange = async (body: object) =>
		await exchangeToken(async () => ({ statusCode: 200, body: JSON.stringify(body) }), {
			environment: 'sandbox',
			baseUrl: 'http://127.0.0.1:9',
			apiKey: KEY,
			customerId: 'customer-1',
			accessToken: '',
		});

	it.each([0, -5, undefined, 'soon'])('expires_in %p falls back to the JWT exp', async (expiresIn) => {
		const exp = Math.floor(Date.now() / 1000) + 1800;
		const issued = await exchange({ access_token: jwt({ exp }), expires_in: expiresIn });
		expect(issued.expiresAtMs).toBe(exp * 1000);
	});

	it('without expires_in and exp the token lives 60 minutes', async () => {
		const before = Date.now();
		const issued = await exchange({ access_token: 'opaque-token', expires_in: 0 });
		expect(issued.expiresAtMs - before).toBeGreaterThanOrEqual(3_600_000 - 5);
		expect(issued.expiresAtMs - before).toBeLessThan(3_600_000 + 1000);
	});

	it('a positive expires_in shorter than exp wins', async () => {
		const exp = Math.floor(Date.now() / 1000) + 3600;
		const before = Date.now();
		const issued = await exchange({ access_token: jwt({ exp }), expires_in: 60 });
		expect(issued.expiresAtMs - before).toBeLessThan(61_000);
	});
});

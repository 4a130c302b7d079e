/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import os from 'node:os';

import { BaseUrlError, checkBaseUrl } from '../../nodes/shared/transport/credential-values';
import { VerificationServicesTrigger } from '../../nodes/VerificationServicesTrigger/VerificationServicesTrigger.node';
import { actionNode, useSandbox } from '../helpers/sandbox';
import { runWebhookMethod } from '../helpers/n8n';

/** An address of this machine that is not loopback: a request to it leaves through a network interface. */
function networkAddress(): string {
	const found = Object.values(os.networkInterfaces())
		.flat()
		.find((a) => a && a.family === 'IPv4' && !a.internal);
	return found?.address ?? '192.0.2.1';
}

describe('the base URL rule', () => {
	it.each([
		['https://api-umbrella.io/api/services', 'https://api-umbrella.io/api/services'],
		['https://API-umbrella.io:443/api/services/', 'https://api-umbrella.io/api/services'],
		['  https://proxy.example.com:8443/umbrella//  ', 'https://proxy.example.com:8443/umbrella'],
		['http://127.0.0.1:4010/api/services', 'http://127.0.0.1:4010/api/services'],
		['http://127.8.9.10/api', 'http://127.8.9.10/api'],
		['http://localhost:4010/api/services', 'http://localhost:4010/api/services'],
		['http://[::1]:4010/api', 'http://[::1]:4010/api'],
	])('accepts %s as %s', (raw, checked) => {
		expect(checkBaseUrl(raw)).toBe(checked);
	});

	it.each([
		['http://api-umbrella.io/api/services', /must use https:\/\/ for api-umbrella\.io: http:\/\/ would send the API key and the token unencrypted/],
		['http://10.0.0.5:8080/api', /must use https:\/\/ for 10\.0\.0\.5:8080/],
		['http://localhost.example.com/api', /must use https:\/\//],
		['ftp://api-umbrella.io/api', /must start with https:\/\/ \(it starts with ftp:\)/],
		['file:///etc/passwd', /must start with https:\/\/ \(it starts with file:\)/],
		['api-umbrella.io/api/services', /is not a URL: it must look like https:\/\/host\/path/],
		['https://api-umbrella.io/api?key=s3cr3t', /must not have a query \(\?\.\.\.\) or fragment/],
	])('refuses %s, naming the rule', (raw, rule) => {
		expect(() => checkBaseUrl(raw)).toThrow(BaseUrlError);
		expect(() => checkBaseUrl(raw)).toThrow(rule);
		expect(() => checkBaseUrl(raw)).not.toThrow(/s3cr3t/);
	});

	it.each(['https://proxyuser:pr0xy-pa55@proxy.example.com/api', 'http://proxyuser:pr0xy-pa55@127.0.0.1:4010/api', 'https://pr0xy-pa55@proxy.example.com/api'])(
		'refuses a user name or password in %s without printing them',
		(raw) => {
			let message = '';
			try {
				checkBaseUrl(raw, 'Sandbox Base URL');
			} catch (error) {
				message = (error as Error).message;
			}
			expect(message).toMatch(/The credential's Sandbox Base URL must not contain a user name or password \(user:password@\)/);
			expect(message).not.toContain('pr0xy-pa55');
			expect(message).not.toContain('proxyuser');
		},
	);
});

describe('a base URL that breaks the rule: nothing is sent', () => {
	const host = networkAddress();
	const emulator = useSandbox('0.0.0.0');
	/** The emulator's API over the network address, not loopback. */
	const remoteBaseUrl = () => `http://${host}:${new URL(emulator().url).port}/api/services`;
	const received = async () => (await emulator().stats()).total;
	const checkIndividual = { resource: 'aml', operation: 'checkIndividual', name: 'Jane Doe' };

	it(`a node with http:// to a network host (${host}) fails before any request, the key never sent in clear`, async () => {
		const result = await emulator().run(actionNode, checkIndividual, { credentials: { sandboxBaseUrl: remoteBaseUrl() }, input: [{ json: {} }, { json: {} }] });
		expect(result.error?.message).toMatch(/Sandbox Base URL must use https:\/\/ for .*http:\/\/ would send the API key and the token unencrypted/);
		expect((result.error as { description?: string }).description).toMatch(/^Nothing was sent\. Correct the base URL/);
		expect(await received()).toBe(0);
	});

	it("the QES trigger's activation (its API calls) fails with the rule, nothing sent", async () => {
		const result = await runWebhookMethod({
			node: new VerificationServicesTrigger(),
			parameters: { source: 'qesStatus', options: {} },
			credentials: { verificationServicesApi: { ...emulator().credentials, sandboxBaseUrl: remoteBaseUrl() } },
			credentialTypes: emulator().credentialTypes,
			method: 'create',
			mode: 'trigger',
		});
		expect(result.error?.message).toMatch(/Sandbox Base URL must use https:\/\//);
		expect(await received()).toBe(0);
	});

	it('a node with a user name and password in the base URL: refused, neither printed anywhere', async () => {
		const sandboxBaseUrl = emulator().baseUrl.replace('//', '//proxyuser:pr0xy-pa55@');
		const result = await emulator().run(actionNode, checkIndividual, { credentials: { sandboxBaseUrl }, continueOnFail: true });
		const everything = JSON.stringify({ error: result.error, message: result.error?.message, items: result.items, run: result.run?.data });
		expect(everything).toMatch(/must not contain a user name or password/);
		expect(everything).not.toContain('pr0xy-pa55');
		expect(everything).not.toContain('proxyuser');
		expect(await received()).toBe(0);
	});
});

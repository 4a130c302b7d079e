/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { VerificationServicesApi } from '../../credentials/VerificationServicesApi.credentials';
import { fileNameOf } from '../../nodes/VerificationServices/kyb/operations/retrieveDocument';
import { baseFileName } from '../../nodes/shared/responses/file-name';
import { clearTokenCache } from '../../nodes/shared/transport/token-cache';
import { actionNode } from '../helpers/action-node';
import { runNode } from '../helpers/n8n';

/** Whatever form the name came in, a later Write File node must not leave its folder with it. */
describe('file names the API gives are reduced to a base name', () => {
	it.each([
		[`attachment; filename*=UTF-8''..%2F..%2F.n8n%2Fconfig`, 'config'],
		[`attachment; filename*=UTF-8''%2Fetc%2Fcron.d%2Fjob`, 'job'],
		[`attachment; filename*=UTF-8''..%5C..%5Cwin.ini`, 'win.ini'],
		[`attachment; filename*=UTF-8''..`, undefined],
		[`attachment; filename*=UTF-8''..%2F..; filename="register.pdf"`, 'register.pdf'],
		[`attachment; filename*=UTF-8''Auszug%20M%C3%BCller.pdf`, 'Auszug Müller.pdf'],
		['attachment; filename="../../etc/passwd"', 'passwd'],
		['attachment; filename=..\\..\\boot.ini', 'boot.ini'],
		['attachment; filename=".."', undefined],
		['attachment; filename="a\tb.pdf"', 'ab.pdf'],
		['attachment; filename="DE-HRB-123456-DOC-1.pdf"', 'DE-HRB-123456-DOC-1.pdf'],
		['inline', undefined],
	])('Content-Disposition %s gives %p', (disposition, name) => {
		expect(fileNameOf({ 'content-disposition': disposition })).toBe(name);
	});

	it.each([
		['../../signed.pdf', 'signed.pdf'],
		['/tmp/x/../signed.pdf', 'signed.pdf'],
		['C:\\Users\\x\\signed.pdf', 'signed.pdf'],
		['..', undefined],
		['', undefined],
		[null, undefined],
		['Vertrag signiert.pdf', 'Vertrag signiert.pdf'],
	])('a name field %p gives %p', (raw, name) => {
		expect(baseFileName(raw)).toBe(name);
	});
});

describe('Retrieve Document over HTTP: a filename*= with ../ arrives as a base name', () => {
	let server: http.Server;
	let baseUrl: string;
	/** The name the server's next answer gives in filename*=, percent-encoded. */
	let encodedName = '';
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				if (req.url === '/api/auth') {
					res.writeHead(200, { 'Content-Type': 'application/json' });
					res.end(JSON.stringify({ access_token: 'local-token', expires_in: 3600 }));
					return;
				}
				res.writeHead(200, {
					'Content-Type': 'application/pdf',
					'Content-Disposition': `attachment; filename="register.pdf"; filename*=UTF-8''${encodedName}`,
				});
				res.end('%PDF-1.4\n%%EOF\n');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	beforeEach(() => clearTokenCache());

	it.each([
		['..%2F..%2F..%2Fhome%2Fnode%2F.n8n%2Fconfig', 'config'],
		['..%5C..%5C..%5CUsers%5Cn8n%5C.n8n%5Cconfig', 'config'],
	])('filename*=%s: the binary and the output name the file %p, with no folder', async (encoded, name) => {
		encodedName = encoded;
		const result = await runNode({
			node: actionNode,
			parameters: { resource: 'kyb', operation: 'retrieveDocument', linkToken: 'lt-1' },
			credentials: { verificationServicesApi: { environment: 'sandbox', sandboxBaseUrl: baseUrl, apiKey: 'k', customerId: 'c', accessToken: '' } },
			credentialTypes: [new VerificationServicesApi()],
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.fileName).toBe(name);
		expect(item.binary?.data.fileName).toBe(name);
		expect(item.binary?.data.directory).toBeUndefined();
	});
});

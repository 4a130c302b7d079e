import { fileNameOf } from '../../nodes/VerificationServices/kyb/operations/retrieveDocument';
import { baseFileName } from '../../nodes/shared/responses/file-name';
import { actionNode, startRewritingProxy, useSandbox } from '../helpers/sandbox';

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
	const emulator = useSandbox();

	it.each([
		['..%2F..%2F..%2Fhome%2Fnode%2F.n8n%2Fconfig', 'config'],
		['..%5C..%5C..%5CUsers%5Cn8n%5C.n8n%5Cconfig', 'config'],
	])('filename*=%s: the binary and the output name the file %p, with no folder', async (encoded, name) => {
		// The emulator serves the token exchange; the proxy answers the retrieval itself, with that name.
		const proxy = await startRewritingProxy(emulator().url, () => false, (json) => json, (req, res) => {
			if (!req.url!.endsWith('/kyb/company/document/retrieve')) return false;
			req.resume();
			res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="register.pdf"; filename*=UTF-8''${encoded}` }).end('%PDF-1.4\n%%EOF\n');
			return true;
		});
		try {
			const result = await emulator().run(actionNode, { resource: 'kyb', operation: 'retrieveDocument', linkToken: 'lt-1' }, { credentials: { sandboxBaseUrl: proxy.baseUrl } });
			expect(result.error).toBeUndefined();
			const [item] = result.items;
			expect(item.json.fileName).toBe(name);
			expect(item.binary?.data.fileName).toBe(name);
			expect(item.binary?.data.directory).toBeUndefined();
		} finally {
			await proxy.close();
		}
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import * as http from 'http';

import axios from 'axios';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAX_RESPONSE_BYTES } from '../../nodes/shared/transport/limited-request';
import { actionNode, expectValidationError, propertyOf, startForeignOrigin, startRewritingProxy, succeeded, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

async function run(
	parameters: INodeParameters,
	input?: INodeExecutionData[],
	{ continueOnFail = false, baseUrl = sandbox().baseUrl, cancelWhen }: { continueOnFail?: boolean; baseUrl?: string; cancelWhen?: Promise<unknown> } = {},
) {
	// These tests read the whole answer: Simplify (on by default) off.
	return await sandbox().run(actionNode, { resource: 'qes', simple: false, ...parameters }, { input, continueOnFail, cancelWhen, credentials: { sandboxBaseUrl: baseUrl } });
}

/** Resolves once `check` holds, asking every 20 ms: waits on an event, never for a fixed time. */
async function until(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((r) => setTimeout(r, 20));
}

const sessions = (...ids: string[]): INodeExecutionData[] => ids.map((sessionId) => ({ json: { sessionId } }));
const getVerification = (options: INodeParameters = {}): INodeParameters => ({
	operation: 'getVerification',
	sessionId: '={{ $json.sessionId }}',
	options,
});
const signedFile = async (sessionId: string) =>
	Buffer.from(
		(await axios.get(`${sandbox().url}/files/signed/${sessionId}.pdf`, { responseType: 'arraybuffer' })).data as ArrayBuffer,
	);

/** Servers a test starts, closed after it whatever its outcome. */
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => await Promise.all(servers.splice(0).map(async (server) => await server.close())));
function closedAfterTest<T extends { close: () => Promise<void> }>(server: T): T {
	servers.push(server);
	return server;
}

/** How the file host answers a download instead of serving the file. */
type FileMisbehaviour = { redirectTo: string } | { trickleMs: number } | { bytes: number };

/**
 * A separate "file host" in front of the emulator: API calls pass through unchanged except that
 * getVerification answers get their signed resourceUrl pointed at this host (or at `linkTo`) with a
 * pre-signed query and, when asked, an expired urlValidBefore. Records the headers of every file
 * download, and whether the client went away before a misbehaving answer ended.
 */
async function startFileHost(options: { expired?: boolean; fileStatus?: number; linkTo?: string; file?: FileMisbehaviour } = {}) {
	const downloads: http.IncomingHttpHeaders[] = [];
	const cutOff: boolean[] = [];
	const serveFile = (req: http.IncomingMessage, res: http.ServerResponse) => {
		if (!req.url!.startsWith('/files/')) return false;
		downloads.push(req.headers);
		if (options.fileStatus) {
			res.writeHead(options.fileStatus, { 'Content-Type': 'application/xml' }).end('<Error>AccessDenied</Error>');
			return true;
		}
		const file = options.file;
		if (!file) return false;
		res.on('close', () => cutOff.push(!res.writableFinished));
		if ('redirectTo' in file) res.writeHead(302, { Location: file.redirectTo }).end();
		else if ('trickleMs' in file) {
			res.writeHead(200, { 'Content-Type': 'application/pdf' }).write('%');
			const timer = setInterval(() => res.write('P'), file.trickleMs);
			res.on('close', () => clearInterval(timer));
		} else {
			res.writeHead(200, { 'Content-Type': 'application/pdf' });
			const chunk = Buffer.alloc(1024 * 1024, 'P');
			let left = file.bytes;
			const pump = () => {
				while (left > 0 && !res.destroyed) {
					left -= chunk.length;
					if (!res.write(left >= 0 ? chunk : chunk.subarray(0, chunk.length + left))) return void res.once('drain', pump);
				}
				if (!res.destroyed) res.end();
			};
			pump();
		}
		return true;
	};
	const linkToHost = (json: IDataObject) => {
		for (const item of (json as { data: { signature: { content: Array<{ signedResource?: IDataObject }> } } }).data.signature.content) {
			const signed = item.signedResource;
			if (!signed) continue;
			signed.resourceUrl = `${options.linkTo ?? host.origin}${new URL(signed.resourceUrl as string).pathname}?X-Signature=presigned-secret`;
			if (options.expired) signed.urlValidBefore = '2020-01-01T00:00:00.000Z';
		}
		return json;
	};
	const host = await startRewritingProxy(sandbox().url, (_method, url) => url.includes('/onboarding/getVerification/'), linkToHost, serveFile);
	return closedAfterTest({ ...host, downloads, cutOff });
}

describe('getVerification', () => {
	it('URL-encodes the session id into the path', async () => {
		const sessionId = 'case 7/2024?ü#1';
		await sandbox().control.post(`/qes/sessions/${encodeURIComponent(sessionId)}/state`, { status: 'pending' });
		const items = succeeded(await run(getVerification(), sessions(sessionId)));
		const [request] = await sandbox().requests('GET /onboarding/getVerification/:sessionId');
		expect(request.path).toBe(`/onboarding/getVerification/${encodeURIComponent(sessionId)}`);
		expect((items[0].json.data as IDataObject).requestId).toBe(sessionId);
	});

	it('explains an unknown session', async () => {
		const result = await run(getVerification(), sessions('no-such-session'));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.message).toBe('Get Verification Result failed with HTTP 404: Session not found');
		expect((result.error as NodeApiError).description).toMatch(/Check the id you passed/);
	});

	describe('Download Signed Documents', () => {
		it('downloads the signed document as binary, bytes equal to the file the API links', async () => {
			const items = succeeded(await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-completed-001')));
			const expected = await signedFile('qes-completed-001');
			const binary = items[0].binary!.signedDocument0;
			expect(binary).toMatchObject({ fileName: 'qes-completed-001-signed.pdf', mimeType: 'application/pdf' });
			expect(Buffer.from(binary.data, 'base64').equals(expected)).toBe(true);
			expect(Object.keys(items[0].binary!)).toEqual(['signedDocument0']);
			const json = items[0].json as IDataObject & { data: { signature: { content: Array<{ signedResource: IDataObject }> } } };
			expect(json.signedDocumentDownloads).toEqual([
				{
					contentIndex: 0,
					fileName: 'qes-completed-001-signed.pdf',
					mimeType: 'application/pdf',
					urlValidBefore: json.data.signature.content[0].signedResource.urlValidBefore,
					downloaded: true,
					binaryPropertyName: 'signedDocument0',
					sizeBytes: expected.length,
					warning: null,
				},
			]);
			// The response itself is untouched beside the convenience list.
			expect(json.data.signature.content[0].signedResource.resourceUrl).toBe(`${sandbox().url}/files/signed/qes-completed-001.pdf`);
			expect(items[0].pairedItem).toEqual({ item: 0 });
		});

		it('uses the configured binary field prefix, one download per item', async () => {
			await sandbox().control.post('/qes/sessions/qes-late-004/state', { status: 'completed' });
			const items = succeeded(await run(
				getVerification({ downloadSignedDocuments: true, binaryPropertyPrefix: 'contract_' }),
				sessions('qes-completed-001', 'qes-late-004'),
			));
			expect(items.map((i) => Object.keys(i.binary ?? {}))).toEqual([['contract_0'], ['contract_0']]);
			expect(Buffer.from(items[1].binary!.contract_0.data, 'base64').equals(await signedFile('qes-late-004'))).toBe(true);
			expect(items[1].binary!.contract_0.fileName).toBe('qes-late-004-signed.pdf');
		});

		it("names the file by the document's base name: a filename with ../ or a path writes nowhere else", async () => {
			const answer = (await run(getVerification(), sessions('qes-completed-001'))).items[0].json as IDataObject & {
				data: { signature: { content: Array<{ signedResource: IDataObject }> } };
			};
			answer.data.signature.content[0].signedResource.filename = '..\\..\\home/node/.n8n/../config';
			await sandbox().configure({ failures: [{ route: 'GET /onboarding/getVerification/:sessionId', status: 200, body: answer }] });
			const items = succeeded(await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-completed-001')));
			expect(items[0].binary!.signedDocument0.fileName).toBe('config');
			expect((items[0].json.signedDocumentDownloads as IDataObject[])[0].fileName).toBe('config');
		});

		it('downloads nothing for a session without signed documents', async () => {
			const items = succeeded(await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-pending-002', 'qes-rejected-003')));
			for (const item of items) {
				expect(item.binary).toBeUndefined();
				expect(item.json.signedDocumentDownloads).toEqual([]);
			}
			expect(items.map((i) => (i.json.data as IDataObject).isVerified)).toEqual([false, false]);
		});

		it('sends no bearer token to the file host', async () => {
			const host = await startFileHost();
			const items = succeeded(await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-completed-001'), {
				baseUrl: host.baseUrl,
			}));
			expect(host.downloads).toHaveLength(1);
			expect(host.downloads[0].authorization).toBeUndefined();
			expect(JSON.stringify(host.downloads[0])).not.toMatch(/bearer/i);
			// ...while the API call itself carried it.
			const [apiCall] = await sandbox().requests('GET /onboarding/getVerification/:sessionId');
			expect(apiCall.headers.authorization).toBe('[redacted]');
			expect(Buffer.from(items[0].binary!.signedDocument0.data, 'base64').equals(await signedFile('qes-completed-001'))).toBe(true);
		});

		it('does not try an expired link and says so in the output', async () => {
			const host = await startFileHost({ expired: true });
			const items = succeeded(await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-completed-001'), {
				baseUrl: host.baseUrl,
			}));
			expect(host.downloads).toHaveLength(0);
			expect(items[0].binary).toBeUndefined();
			expect(items[0].json.signedDocumentDownloads).toEqual([
				expect.objectContaining({
					downloaded: false,
					binaryPropertyName: null,
					urlValidBefore: '2020-01-01T00:00:00.000Z',
					warning:
						'Not downloaded: the link of "qes-completed-001-signed.pdf" expired at 2020-01-01T00:00:00.000Z. Run Get Verification Result again to receive a fresh link.',
				}),
			]);
			expect((items[0].json.data as IDataObject).isVerified).toBe(true);
		});

		it('fails the item clearly when the file host refuses, without showing the pre-signed query', async () => {
			const host = await startFileHost({ fileStatus: 403 });
			const result = await run(getVerification({ downloadSignedDocuments: true }), sessions('qes-completed-001'), {
				baseUrl: host.baseUrl,
			});
			expect(result.error).toBeInstanceOf(NodeOperationError);
			expect(result.error!.message).toBe(
				`Downloading signed document 0 ("qes-completed-001-signed.pdf") from ${host.origin}/files/signed/qes-completed-001.pdf failed with HTTP 403`,
			);
			expect((result.error as NodeOperationError).description).toMatch(/Run Get Verification Result again/);
			expect(JSON.stringify(result.error)).not.toContain('presigned-secret');
		});
	});

	describe('the signed-document download: https only, no redirect, the deadline, the size cap, cancel', () => {
		const downloadRun = async (host: { baseUrl: string }, options: INodeParameters = {}, cancelWhen?: Promise<unknown>) =>
			await run(getVerification({ downloadSignedDocuments: true, ...options }), sessions('qes-completed-001'), { baseUrl: host.baseUrl, cancelWhen });

		it('a plain http link to another host is not fetched: that host receives nothing, the result says why', async () => {
			const foreign = closedAfterTest(await startForeignOrigin());
			const host = await startFileHost({ linkTo: foreign.origin });
			const items = succeeded(await downloadRun(host));
			expect(foreign.requests).toEqual([]);
			expect(items[0].binary).toBeUndefined();
			expect(items[0].json.signedDocumentDownloads).toEqual([
				expect.objectContaining({
					downloaded: false,
					warning: `Not downloaded: the link of "qes-completed-001-signed.pdf" is not https (${foreign.origin}). Only https links, or links on the API's own address, are fetched.`,
				}),
			]);
			expect((items[0].json.data as IDataObject).isVerified).toBe(true);
		});

		it('a file host that redirects to another origin: not followed, that origin receives nothing', async () => {
			const foreign = closedAfterTest(await startForeignOrigin());
			const host = await startFileHost({ file: { redirectTo: `${foreign.origin}/files/x.pdf?sig=secret` } });
			const { error } = await downloadRun(host);
			expect(foreign.requests).toEqual([]);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error!.message).toBe(
				`Downloading signed document 0 ("qes-completed-001-signed.pdf") from ${host.origin}/files/signed/qes-completed-001.pdf failed (a redirect (HTTP 302 to ${foreign.origin}), which is not followed)`,
			);
			expect((error as NodeOperationError).description).toMatch(/redirect, which is never followed/);
			expect(JSON.stringify(error)).not.toMatch(/presigned-secret|sig=secret/);
		});

		it('a file that trickles ends with the deadline error', async () => {
			const host = await startFileHost({ file: { trickleMs: 100 } });
			const { error } = await downloadRun(host, { timeoutSeconds: 0.5 });
			expect(error!.message).toBe(
				`Downloading signed document 0 ("qes-completed-001-signed.pdf") from ${host.origin}/files/signed/qes-completed-001.pdf failed (no complete answer within the timeout of 0.5 s)`,
			);
			expect((error as NodeOperationError).description).toMatch(/raise Timeout \(Seconds\)/);
			await until(() => host.cutOff.length > 0);
			expect(host.cutOff).toEqual([true]);
		});

		it('a file over the size cap is an error naming the cap, and is not read further', async () => {
			const host = await startFileHost({ file: { bytes: 2 * MAX_RESPONSE_BYTES } });
			const { error } = await downloadRun(host);
			expect(error!.message).toMatch(/failed \(an answer larger than the limit of 64 MiB \(HTTP 200\), which was not read further\)$/);
			await until(() => host.cutOff.length > 0);
			expect(host.cutOff).toEqual([true]);
		});

		it('a stopped execution ends a download under way', async () => {
			const host = await startFileHost({ file: { trickleMs: 100 } });
			// Without the cancel signal the download would run for the whole Timeout of 10 minutes.
			const started = until(() => host.downloads.length > 0);
			const { items } = await downloadRun(host, { timeoutSeconds: 600 }, started);
			expect(items).toEqual([]);
			await until(() => host.cutOff.length > 0);
			expect(host.cutOff).toEqual([true]);
		});
	});
});

describe('configureWebhook', () => {
	const configure = (extra: IDataObject = {}): INodeParameters => ({
		operation: 'configureWebhook',
		webhookUrl: 'https://example.com/webhook/qes',
		...extra,
	});
	const headers = (...pairs: Array<[string, string]>) => ({ header: pairs.map(([name, value]) => ({ name, value })) });

	it('warns that configuring replaces the webhook', () => {
		const { properties } = actionNode.description;
		const operation = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('qes'))!;
		const options = operation.options as Array<{ value: string; description: string }>;
		expect(options.find((o) => o.value === 'configureWebhook')!.description).toMatch(/one webhook URL per account.*replaces the previous one/);
		const notice = properties.find(
			(p) => p.type === 'notice' && p.displayOptions?.show?.resource?.includes('qes') && !['retryOnFailNotice', 'humanReviewNotice'].includes(p.name),
		)!;
		expect(notice.displayName).toMatch(/replaces the previous one.*IDCanopy Umbrella Trigger for QES status pings. That trigger sets its own URL when its workflow is published/);
	});

	it('sends webhookUrl alone without headers; configuring again replaces the URL', async () => {
		expect((await run(configure())).error).toBeUndefined();
		expect((await run(configure({ webhookUrl: 'http://localhost:5678/webhook/other' }))).error).toBeUndefined();
		expect(await sandbox().bodies('POST /onboarding/configureWebhook')).toEqual([
			{ webhookUrl: 'https://example.com/webhook/qes' },
			{ webhookUrl: 'http://localhost:5678/webhook/other' },
		]);
		expect((await sandbox().control.get('/webhook')).data).toMatchObject({ url: 'http://localhost:5678/webhook/other', metadata: {} });
	});

	it('never shows a header value, even when the API echoes it in an error', async () => {
		await sandbox().configure({
			failures: [
				{
					route: 'POST /onboarding/configureWebhook',
					status: 400,
					body: { message: 'Header X-Webhook-Token: s3cr3t-value is not accepted' },
				},
			],
		});
		const result = await run(configure({ authHeader: headers(['X-Webhook-Token', 's3cr3t-value']) }));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.message).toBe('Configure Webhook failed with HTTP 400: Header X-Webhook-Token: [redacted] is not accepted');
		expect((result.error as NodeApiError).httpCode).toBe('400');
		const error = result.error as NodeApiError & { errorResponse?: unknown };
		expect(error.errorResponse).toEqual({ message: 'Header X-Webhook-Token: [redacted] is not accepted' });
		expect(JSON.stringify([error.message, error.description, error.messages, error.errorResponse, error.context])).not.toContain(
			's3cr3t-value',
		);
		// What n8n stores for the execution: everything but `node` (n8n attaches the node with its
		// parameters, as saved in the workflow, to every error).
		const stored = result.run!.data.resultData.runData[actionNode.description.defaults.name!][0].error as unknown as IDataObject;
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the property is left out on purpose
		const { node: _node, stack: _stack, ...shown } = stored;
		expect(shown.errorResponse).toEqual({ message: 'Header X-Webhook-Token: [redacted] is not accepted' });
		expect(JSON.stringify(shown)).not.toContain('s3cr3t-value');
	});

	it.each<[string, ReturnType<typeof headers>, ...string[]]>([
		['a header name with a space', headers(['X Token', 'abc']), 'Auth Headers (authHeader) entry 1: the header name must be letters, digits', 'got "X Token"'],
		['a blank header name', headers(['X-Ok', 'abc'], [' ', 'abc']), 'Auth Headers (authHeader) entry 2: the header name must be'],
		['a duplicate header name', headers(['X-Token', 'abc'], ['x-token', 'def']), 'Auth Headers (authHeader) entry 2: the header name must be unique, got "x-token" twice'],
		['a blank value', headers(['X-Token', '  ']), 'Auth Headers (authHeader) entry 1: the value of header "X-Token" must be a non-blank text (value not shown)'],
		['a value with a line break', headers(['X-Token', 'top-secret\r\nX-Injected: 1']), 'Auth Headers (authHeader) entry 1: the value of header "X-Token" must be a single line without line breaks (value not shown)'],
	])('refuses %s before sending, without showing any value', async (_what, authHeader, ...parts) => {
		const result = await run(configure({ authHeader }));
		await expectValidationError(sandbox(), result, 0, ...parts);
		const error = result.error as NodeOperationError;
		const shown = JSON.stringify([error.message, error.description, error.messages, error.context]);
		for (const { value } of authHeader.header) {
			if (value.trim()) expect(shown).not.toContain(value);
		}
	});
});

describe('createSessionLink', () => {
	const required = {
		operation: 'createSessionLink',
		email: 'erika.mustermann@example.com',
		phoneNumber: '+4915112345678',
		redirectUrl: 'https://example.com/onboarding/done',
		docUrl: 'https://example.com/contracts/contract.pdf',
	};
	const PERSON = ['firstName', 'lastName', 'email', 'phoneNumber', 'birthDate', 'gender', 'personalNumber'];
	const PLACEHOLDERS = [...PERSON, 'documentDetails.number'].map((field) => `\${identification.${field}}`);

	it('hints the rules and the placeholders in the UI', () => {
		const show = (name: string) => propertyOf('qes', 'createSessionLink', name);
		expect(show('docUrl').description).toMatch(/public .* signature field.*Must be an https:\/\/ URL\./);
		expect(show('phoneNumber').description).toContain('Must be in E.164 format');
		const fillForm = show('fillForm') as { options: Array<{ values: Array<{ name: string; description: string }> }> };
		const valueHint = fillForm.options[0].values.find((v) => v.name === 'value')!.description;
		for (const placeholder of PLACEHOLDERS) expect(valueHint).toContain(placeholder);
		const signForms = show('signForms') as { options: Array<{ values: Array<{ name: string; default: string }> }> };
		expect(signForms.options[0].values.find((v) => v.name === 'actorId')!.default).toBe('userToIdentify');
	});

	it('refuses a sign form and a fill form entry without a field id before sending', async () => {
		const noField = await run({ ...required, signForms: { form: [{ fieldId: 'ok' }, { fieldId: ' ', actorId: 'userToIdentify' }] } });
		await expectValidationError(sandbox(), noField, 0, 'Sign Forms (signForms) entry 2: fieldId must not be blank');
		const noFill = await run({ ...required, fillForm: { field: [{ fieldId: '', value: 'x' }] } });
		await expectValidationError(sandbox(), noFill, 0, 'Fill Form (fillForm) entry 1: fieldId must not be blank');
	});
});

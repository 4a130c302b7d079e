import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, VersionedNodeType } from 'n8n-workflow';

import {
	binaryData,
	runCredentialTest,
	runLoadOptions,
	runNode,
	runWebhook,
	runWebhookMethod,
} from '../helpers/n8n';
import { Fixture } from './fixtures/Fixture.node';
import { FixtureDeclarative } from './fixtures/FixtureDeclarative.node';
import { FixtureApi } from './fixtures/FixtureApi.credentials';
import { FixtureFunctionApi } from './fixtures/FixtureFunctionApi.credentials';
import { FixtureTrigger } from './fixtures/FixtureTrigger.node';
import { startFixtureServer } from './fixtures/server';

let server: Awaited<ReturnType<typeof startFixtureServer>>;

beforeAll(async () => {
	server = await startFixtureServer();
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.requests.length = 0;
});

const credentialTypes = [new FixtureApi(), new FixtureFunctionApi()];
const fixtureApi = (extra: Record<string, string> = {}) => ({
	fixtureApi: { apiKey: 'key-123', serverUrl: server.url, ...extra },
});
const sessionRequests = () => server.requests.filter((r) => r.url === '/v1/session');

describe('runNode: credentials through n8n-core httpRequestWithAuthentication', () => {
	it('sends the header produced by the generic authenticate, with expression defaults resolved', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'echo' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		// baseUrl came from the hidden property's `={{ $self.serverUrl + "/v1" }}` default.
		expect(items[0].json.url).toBe('/v1/echo');
		expect((items[0].json.headers as Record<string, string>).authorization).toBe(
			'Bearer session-42',
		);
		// The token was present, so preAuthentication was not called.
		expect(sessionRequests()).toHaveLength(0);
	});

	it('sends the header produced by a function-form authenticate', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { authentication: 'fixtureFunctionApi', operation: 'echo' },
			credentials: { fixtureFunctionApi: { secret: 's3cret', baseUrl: `${server.url}/v1` } },
			credentialTypes,
		});

		expect(error).toBeUndefined();
		expect((items[0].json.headers as Record<string, string>)['x-signature']).toBe(
			'sig:s3cret:GET',
		);
	});

	it('resolves parameter expressions against each input item', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'echo', path: '={{ $json.path }}' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			input: [{ json: { path: '/echo?a=1' } }, { json: { path: '/echo?a=2' } }],
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.url)).toEqual(['/v1/echo?a=1', '/v1/echo?a=2']);
	});

	it('calls preAuthentication when the expirable property is empty and records the update', async () => {
		const { items, error, credentialUpdates } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'echo' },
			credentials: fixtureApi(),
			credentialTypes,
			input: [{ json: { n: 1 } }, { json: { n: 2 } }],
		});

		expect(error).toBeUndefined();
		// Once: the first item's token is persisted, the second item reads it back like from the DB.
		expect(sessionRequests()).toHaveLength(1);
		// What n8n persists: the stored (raw) data plus the token, not the resolved defaults.
		expect(credentialUpdates).toEqual([
			{
				type: 'fixtureApi',
				data: {
					apiKey: 'key-123',
					serverUrl: server.url,
					sessionToken: expect.stringMatching(/^session-\d+$/),
				},
			},
		]);
		const token = credentialUpdates[0].data.sessionToken as string;
		expect(
			items.map((item) => (item.json.headers as Record<string, string>).authorization),
		).toEqual([`Bearer ${token}`, `Bearer ${token}`]);
	});

	it('refreshes an expired token after a 401 (credentialsExpired = true) and retries', async () => {
		const { items, error, credentialUpdates } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'echo' },
			credentials: fixtureApi({ sessionToken: 'expired-token' }),
			credentialTypes,
		});

		expect(error).toBeUndefined();
		expect(credentialUpdates).toHaveLength(1);
		expect(credentialUpdates[0].data.sessionToken).toMatch(/^session-\d+$/);
		expect((items[0].json.headers as Record<string, string>).authorization).toBe(
			`Bearer ${credentialUpdates[0].data.sessionToken as string}`,
		);
	});
});

describe('runNode: binary data (default mode)', () => {
	it('delivers binary input to getBinaryDataBuffer and returns prepareBinaryData output', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'binary' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			input: [
				{
					json: { name: 'doc' },
					binary: { data: binaryData('hello world', { mimeType: 'text/plain', fileName: 'a.txt' }) },
				},
			],
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ size: 11, text: 'hello world', mimeType: 'text/plain' });
		const upper = items[0].binary!.upper;
		expect(upper).toMatchObject({ mimeType: 'text/plain', fileName: 'upper.txt', bytes: 11 });
		expect(Buffer.from(upper.data, 'base64').toString('utf8')).toBe('HELLO WORLD');
	});
});

describe('runNode: MIME type sniffing in prepareBinaryData', () => {
	const sniffer: INodeType = {
		description: {
			displayName: 'Sniffer',
			name: 'sniffer',
			group: ['transform'],
			version: 1,
			description: 'prepareBinaryData without a MIME type',
			defaults: { name: 'Sniffer' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
			return [[{ json: {}, binary: { data: await this.helpers.prepareBinaryData(png) } }]];
		},
	};

	it('needs NODE_OPTIONS=--experimental-vm-modules under jest (n8n-core imports ESM file-type)', async () => {
		const { items, error } = await runNode({ node: sniffer, parameters: {} });

		if ((process.env.NODE_OPTIONS ?? '').includes('--experimental-vm-modules')) {
			expect(items[0].binary?.data.mimeType).toBe('image/png');
		} else {
			expect(error?.message).toContain('pass a mimeType');
		}
	});
});

describe('runNode: errors', () => {
	it('returns a thrown NodeOperationError as `error`, class preserved', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fail' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		});

		expect(items).toEqual([]);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('Fixture failure on item 0');
		expect((error as NodeOperationError).description).toBe('Raised on purpose');
	});

	it('returns a NodeApiError for a failed HTTP call', async () => {
		const { error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fail', errorKind: 'api' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('500');
	});

	it('with continueOnFail the item carries json.error and the run has no error', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fail' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			continueOnFail: true,
			input: [{ json: { a: 1 } }, { json: { a: 2 } }],
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{ json: { error: 'Fixture failure on item 0' }, pairedItem: { item: 0 } },
			{ json: { error: 'Fixture failure on item 1' }, pairedItem: { item: 1 } },
		]);
	});

	it("with onError 'continueErrorOutput' the error items go to the error output", async () => {
		const { outputs, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fail' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			onError: 'continueErrorOutput',
			input: [{ json: { a: 1 } }],
		});

		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		expect(outputs[0]).toEqual([]);
		// n8n merges the paired input item into the error item on the error output.
		expect(outputs[1].map((item) => item.json)).toEqual([
			{ a: 1, error: 'Fixture failure on item 0' },
		]);
	});

	it('with continueOnFail, an error thrown out of execute() passes the input through (n8n behaviour)', async () => {
		const { items, error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fail', errorKind: 'uncaught' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			continueOnFail: true,
			input: [{ json: { a: 1 } }],
		});

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(items.map((item) => item.json)).toEqual([{ a: 1 }]);
	});

	it('reports missing credentials the way n8n does', async () => {
		const { error } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'echo' },
			credentialTypes,
		});

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('Node does not have any credentials set');
	});
});

describe('runNode: pairedItem', () => {
	it('keeps the pairedItem the node sets', async () => {
		const { items } = await runNode({
			node: new Fixture(),
			parameters: { operation: 'fanOut' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			input: [{ json: { id: 'a' } }, { json: { id: 'b' } }],
		});

		expect(items.map((item) => [item.json.part, item.pairedItem])).toEqual([
			[1, { item: 0 }],
			[2, { item: 0 }],
			[1, { item: 1 }],
			[2, { item: 1 }],
		]);
	});
});

describe('runNode: other node shapes', () => {
	it('runs a declarative node through RoutingNode, NodeApiError on failure', async () => {
		const ok = await runNode({
			node: new FixtureDeclarative(),
			parameters: { operation: 'echo' },
			credentials: fixtureApi(),
			credentialTypes,
		});
		expect(ok.error).toBeUndefined();
		expect(ok.credentialUpdates).toHaveLength(1);
		expect((ok.items[0].json.headers as Record<string, string>).authorization).toBe(
			`Bearer ${ok.credentialUpdates[0].data.sessionToken as string}`,
		);

		const failed = await runNode({
			node: new FixtureDeclarative(),
			parameters: { operation: 'fail' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		});
		expect(failed.error).toBeInstanceOf(NodeApiError);
		expect((failed.error as NodeApiError).httpCode).toBe('500');
	});

	it('runs a VersionedNodeType at its default version or the requested one', async () => {
		const versioned = new VersionedNodeType(
			{ 1: new Fixture(), 2: new Fixture() },
			{
				displayName: 'Versioned Fixture',
				name: 'versionedFixture',
				group: ['transform'],
				description: 'Harness fixture (versioned)',
				defaultVersion: 2,
			},
		);
		for (const typeVersion of [undefined, 1]) {
			const { items, error, run } = await runNode({
				node: versioned,
				parameters: { operation: 'fanOut' },
				credentials: fixtureApi({ sessionToken: 'session-42' }),
				credentialTypes,
				typeVersion,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(run?.data.resultData.runData).toHaveProperty('Versioned Fixture');
		}
	});
});

describe('runLoadOptions', () => {
	it('calls the loadOptions method with a real LoadOptionsContext', async () => {
		const options = await runLoadOptions({
			node: new Fixture(),
			method: 'getColors',
			parameters: { operation: 'echo' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		});

		expect(options).toEqual([
			{ name: 'Red', value: 'red' },
			{ name: 'Blue', value: 'blue' },
		]);
		expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer session-42');
	});
});

describe('runCredentialTest', () => {
	it('returns OK after preAuthentication + authenticate', async () => {
		const result = await runCredentialTest({
			credentialType: new FixtureApi(),
			data: { apiKey: 'key-123', serverUrl: server.url, sessionToken: 'stale-but-ignored' },
		});

		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		// In a credential test preAuthentication always runs.
		expect(sessionRequests()).toHaveLength(1);
		expect(server.requests.at(-1)?.headers.authorization).toMatch(/^Bearer session-\d+$/);
	});

	it('returns Error with the HTTP status text for a rejected key', async () => {
		const result = await runCredentialTest({
			credentialType: new FixtureApi(),
			data: { apiKey: 'wrong', serverUrl: server.url },
		});

		expect(result).toMatchObject({ status: 'Error', message: 'Unauthorized' });
	});

	it('applies responseCode rules', async () => {
		const result = await runCredentialTest({
			credentialType: new FixtureApi(),
			data: { apiKey: 'revoked-key', serverUrl: server.url },
		});

		expect(result).toMatchObject({ status: 'Error', message: 'The API key was revoked' });
	});

	it('returns the connection error code when the server is unreachable', async () => {
		const result = await runCredentialTest({
			credentialType: new FixtureApi(),
			data: { apiKey: 'key-123', serverUrl: 'http://127.0.0.1:1' },
		});

		expect(result).toMatchObject({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('webhooks', () => {
	it('runWebhook calls webhook() with a real WebhookContext', async () => {
		const ok = await runWebhook({
			node: new FixtureTrigger(),
			parameters: { secret: 'abc' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			request: { headers: { 'X-Fixture-Secret': 'abc' }, body: { event: 'signed', id: 7 } },
		});
		expect(ok.error).toBeUndefined();
		expect(ok.response?.workflowData).toEqual([[{ json: { event: 'signed', id: 7 } }]]);

		const rejected = await runWebhook({
			node: new FixtureTrigger(),
			parameters: { secret: 'abc' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
			request: { headers: { 'X-Fixture-Secret': 'nope' }, body: {} },
		});
		expect(rejected.response).toEqual({ noWebhookResponse: true });
		expect(rejected.res).toMatchObject({ statusCode: 401, body: { message: 'bad secret' } });
	});

	it('runWebhookMethod registers and deletes the webhook with static data', async () => {
		const common = {
			node: new FixtureTrigger(),
			parameters: { event: 'signed' },
			credentials: fixtureApi({ sessionToken: 'session-42' }),
			credentialTypes,
		};
		const exists = await runWebhookMethod({ ...common, method: 'checkExists' });
		expect(exists.result).toBe(false);

		const created = await runWebhookMethod({ ...common, method: 'create' });
		expect(created.error).toBeUndefined();
		expect(created.staticData).toEqual({ 'node:Fixture Trigger': { webhookId: 'wh-1' } });
		expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
			url: 'http://localhost:5678/webhook/harness-webhook-id/fixture',
			event: 'signed',
		});

		const deleted = await runWebhookMethod({
			...common,
			method: 'delete',
			staticData: created.staticData,
		});
		expect(deleted.result).toBe(true);
		expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v1/webhooks/wh-1' });
	});
});

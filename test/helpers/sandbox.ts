/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { createHash } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';

import axios, { type AxiosInstance } from 'axios';
import { NodeOperationError, type ICredentialDataDecryptedObject, type IDataObject, type INodeExecutionData, type INodeParameters, type INodeProperties, type INodePropertyOptions, type INodeType } from 'n8n-workflow';

import { VerificationServicesApi } from '../../credentials/VerificationServicesApi.credentials';
import { VerificationServices } from '../../nodes/VerificationServices/VerificationServices.node';
import { responseSha256 } from '../../nodes/shared/operation/evidence';
import { resetPacers } from '../../nodes/shared/transport/pacing';
import { clearTokenCache } from '../../nodes/shared/transport/token-cache';
import { type RunNodeOptions, type RunNodeResult, runLoadOptions, runNode } from './n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sandboxModule = require('../../sandbox/server') as {
	startSandbox: (opts?: { port?: number; host?: string }) => Promise<{ url: string; baseUrl: string; close: () => Promise<void> }>;
	SANDBOX_API_KEY: string;
	SANDBOX_CUSTOMER_ID: string;
};

export const { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = sandboxModule;

export interface RecordedRequest {
	route: string;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number;
}

export interface Sandbox {
	url: string;
	baseUrl: string;
	credentials: ICredentialDataDecryptedObject;
	credentialTypes: VerificationServicesApi[];
	/** The emulator's control API (/__control/...), answering every status without throwing. */
	control: AxiosInstance;
	/** A fresh access token for the sandbox credential, for calling the API without a node. */
	token: () => Promise<string>;
	reset: () => Promise<void>;
	configure: (config: Record<string, unknown>) => Promise<void>;
	count: (route: string) => Promise<number>;
	stats: () => Promise<{ counts: Record<string, number>; status: Record<string, number>; maxConcurrent: number; inFlight: number; total: number }>;
	requests: (route: string) => Promise<RecordedRequest[]>;
	/** The bodies of the requests on `route`, oldest first. */
	bodies: (route: string) => Promise<IDataObject[]>;
	close: () => Promise<void>;
	/** runNode with the credential pointing at the emulator (`credentials` overrides some of its values). */
	run: (node: INodeType, parameters: INodeParameters, options?: RunOptions) => Promise<SandboxRunResult>;
	/** runLoadOptions with the credential pointing at the emulator (`credentials` overrides some of its values). */
	loadOptions: (node: INodeType, method: string, parameters: INodeParameters, credentials?: Record<string, string>) => Promise<INodePropertyOptions[]>;
}

export type SandboxRunResult = RunNodeResult & {
	/** Each item's `evidence` of the first output (undefined where it has none), set aside from its json. */
	evidence: Array<IDataObject | undefined>;
};

export type RunOptions = Pick<RunNodeOptions, 'input' | 'continueOnFail' | 'onError' | 'cancelWhen' | 'retry' | 'typeVersion'> & {
	credentials?: Record<string, string>;
	/** The input items as their json alone (instead of `input`). */
	json?: IDataObject[];
};

/** Starts the emulator on a free port (of `host`, loopback by default), with credential data pointing at it. */
export async function startSandbox(host?: string): Promise<Sandbox> {
	const server = await sandboxModule.startSandbox({ port: 0, host });
	const control = axios.create({ baseURL: `${server.url}/__control`, validateStatus: () => true });
	const sandbox: Sandbox = {
		url: server.url,
		baseUrl: server.baseUrl,
		credentials: {
			environment: 'sandbox',
			sandboxBaseUrl: server.baseUrl,
			productionBaseUrl: 'http://127.0.0.1:9/unused',
			apiKey: SANDBOX_API_KEY,
			customerId: SANDBOX_CUSTOMER_ID,
			accessToken: '',
		},
		credentialTypes: [new VerificationServicesApi()],
		control,
		token: async () => (await axios.post(`${server.baseUrl}/auth`, '', { headers: { 'Api-Key': SANDBOX_API_KEY, 'Customer-Id': SANDBOX_CUSTOMER_ID } })).data.access_token,
		reset: async () => {
			clearTokenCache();
			resetPacers();
			await control.post('/reset');
		},
		configure: async (config) => {
			await control.post('/config', config);
		},
		stats: async () => (await control.get('/stats')).data,
		count: async (route) => ((await control.get('/stats')).data.counts[route] as number | undefined) ?? 0,
		requests: async (route) => (await control.get('/requests', { params: { route } })).data,
		bodies: async (route) => (await sandbox.requests(route)).map((r) => r.body as IDataObject),
		close: async () => await server.close(),
		run: async (node, parameters, { credentials, json, ...options } = {}) =>
			evidenceSetAside(
				!node.description.name.endsWith('Tool'),
				await runNode({
					node,
					parameters,
					credentials: { verificationServicesApi: { ...sandbox.credentials, ...credentials } },
					credentialTypes: sandbox.credentialTypes,
					...options,
					...(json ? { input: items(...json) } : {}),
				}),
			),
		loadOptions: async (node, method, parameters, credentials) =>
			await runLoadOptions({
				node,
				method,
				parameters,
				credentials: { verificationServicesApi: { ...sandbox.credentials, ...credentials } },
				credentialTypes: sandbox.credentialTypes,
			}),
	};
	return sandbox;
}

/**
 * Every answer's evidence checked for what it promises (the answer's hash recomputed from the item as
 * output, the sandbox named, no secret), then set aside, so that a test about the answer compares the
 * answer. test/shared/evidence.test.ts checks the rest against what the emulator received. What an AI
 * model reads is not the item as output: it is left as the model reads it.
 */
function evidenceSetAside(check: boolean, result: RunNodeResult): SandboxRunResult {
	const evidence: Array<IDataObject | undefined> = [];
	const outputs = result.outputs.map((output, outputIndex) =>
		output.map((item) => {
			const kept = item.json.evidence as IDataObject | undefined;
			if (outputIndex === 0) evidence.push(kept);
			if (!kept || !check) return item;
			const json = { ...item.json };
			delete json.evidence;
			expect(kept.responseSha256).toBe(responseSha256(json));
			expect(kept).toMatchObject({ environment: 'sandbox', requestSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
			expect(Date.parse(kept.respondedAt as string)).toBeGreaterThanOrEqual(Date.parse(kept.requestedAt as string));
			const text = JSON.stringify(kept);
			for (const secret of [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID]) expect(text).not.toContain(secret);
			return { ...item, json };
		}),
	);
	return { ...result, outputs, items: outputs[0] ?? [], evidence };
}

/** One emulator for the test file, reset (state, counters, token cache) before each test. */
export function useSandbox(host?: string): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(host);
	});
	afterAll(async () => await sandbox?.close());
	beforeEach(async () => await sandbox!.reset());
	return () => sandbox!;
}

/** The NodeOperationError/NodeApiError's item index, wherever n8n keeps it. */
export function errorItemIndex(error: unknown): unknown {
	const e = error as { context?: { itemIndex?: unknown }; itemIndex?: unknown };
	return e.context?.itemIndex ?? e.itemIndex;
}

/** Input items from plain objects. */
export const items = (...json: IDataObject[]): INodeExecutionData[] => json.map((j) => ({ json: j }));

/** The items of a run that must succeed (the test fails with the run's error otherwise). */
export function succeeded(run: RunNodeResult): INodeExecutionData[] {
	expect(run.error).toBeUndefined();
	return run.items;
}

/**
 * Asserts the run failed validation for `itemIndex` (0-based, as n8n's itemIndex; the message and
 * description count from 1 as n8n's UI does), the message contains every part, and nothing at all
 * reached the emulator, not even a token exchange.
 */
export async function expectValidationError(
	sandbox: Pick<Sandbox, 'stats'>,
	result: RunNodeResult,
	itemIndex: number,
	...parts: string[]
): Promise<void> {
	expect(result.error).toBeInstanceOf(NodeOperationError);
	const message = result.error!.message;
	for (const part of parts) expect(message).toContain(part);
	expect(message).toContain(`(item ${itemIndex + 1})`);
	expect((result.error as NodeOperationError).description).toContain(`Nothing was sent for item ${itemIndex + 1}`);
	expect((result.error as NodeOperationError).context.itemIndex).toBe(itemIndex);
	expect(result.items).toHaveLength(0);
	expect((await sandbox.stats()).total).toBe(0);
}

/** The action node; it keeps no state between runs, so one instance serves a whole test file. */
export const actionNode = new VerificationServices();

/** The action node as n8n gives it to an AI agent: the type `<package>.verificationServicesTool` (runsAsTool). */
export const actionTool: INodeType = Object.create(actionNode) as INodeType;
actionTool.description = { ...actionNode.description, name: 'verificationServicesTool' };

/** Runs the action node on one resource against the emulator: `resource` joins every run's parameters. */
export function resourceRun(sandbox: () => Sandbox, resource: string) {
	return async (parameters: INodeParameters, options?: RunOptions): Promise<SandboxRunResult> =>
		await sandbox().run(actionNode, { resource, ...parameters }, options);
}

/** The action node's property of this name shown for the resource and operation (whatever else it depends on). */
export function propertyOf(resource: string, operation: string, name: string): INodeProperties {
	const found = actionNode.description.properties.find(
		(p) =>
			p.name === name &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
			(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
	);
	if (!found) throw new Error(`No property ${name} for ${resource}.${operation}`);
	return found;
}

/** The API generations the emulator plays (sandbox/generation.js): every affected operation is tested against each. */
export const GENERATIONS = ['g2', 'g3'] as const;
export type Generation = (typeof GENERATIONS)[number];

/** The emulator plays `generation` in every test of the enclosing describe block (set after its reset). */
export function playing(emulator: () => Sandbox, generation: Generation): void {
	beforeEach(async () => await emulator().configure({ generation }));
}

/** Challenge Deposit parameters that pass every rule (test/e2e/lib/workflows.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { VALID_DEPOSIT } = require('../e2e/lib/workflows') as { VALID_DEPOSIT: Record<string, string | boolean> };

/** Another origin a redirect points at (test/e2e/lib/foreign-origin.js): what reached it, by method, url and header names. */
export interface ForeignOrigin {
	origin: string;
	requests: Array<{ method: string; url: string; headers: string[] }>;
	close: () => Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { startForeignOrigin } = require('../e2e/lib/foreign-origin') as { startForeignOrigin: () => Promise<ForeignOrigin> };

/**
 * A proxy in front of the emulator (`target` = its origin) that passes every request through and
 * replaces the JSON of the 200 answers `when` selects with `rewrite(json)`: an API generation or a
 * misbehaving API the emulator does not play itself. `serve` may answer a request itself (it returns true).
 */
export async function startRewritingProxy(
	target: string,
	when: (method: string, path: string) => boolean,
	rewrite: (json: IDataObject) => unknown,
	serve: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false,
) {
	const upstreamOrigin = new URL(target);
	const server = http.createServer((req, res) => {
		if (serve(req, res)) return;
		const upstream = http.request(
			{ host: upstreamOrigin.hostname, port: upstreamOrigin.port, path: req.url, method: req.method, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (c: Buffer) => chunks.push(c));
				answer.on('end', () => {
					let body = Buffer.concat(chunks);
					if (answer.statusCode === 200 && when(req.method!, req.url!)) {
						body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString('utf8')))));
					}
					res.writeHead(answer.statusCode!, { ...answer.headers, 'content-length': String(body.length) }).end(body);
				});
			},
		);
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		/** The API base URL through the proxy, for the credential. */
		baseUrl: `${origin}/api/services`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Runs the action node on `resource` with the credential pointing at a proxy in front of the emulator that replaces the 200
 * answers of the API path `path` (e.g. /address/verify) with `rewrite(answer)`: another API
 * generation, or an answer the emulator does not give.
 */
export async function runWithRewrittenAnswers(
	emulator: Sandbox,
	resource: string,
	path: string,
	rewrite: (answer: IDataObject) => unknown,
	parameters: INodeParameters,
	options: { continueOnFail?: boolean } = {},
): Promise<RunNodeResult> {
	const origin = emulator.baseUrl.replace(/\/api\/services$/, '');
	const proxy = await startRewritingProxy(origin, (_method, url) => url.endsWith(path), rewrite);
	try {
		return await emulator.run(actionNode, { resource, ...parameters }, { credentials: { sandboxBaseUrl: proxy.baseUrl }, continueOnFail: options.continueOnFail });
	} finally {
		await proxy.close();
	}
}

/** RFC 8785 canonical JSON of plain JSON values, written apart from the node's, so tests can check its hashes. */
export const canonical = (value: unknown): string =>
	Array.isArray(value)
		? `[${value.map(canonical).join(',')}]`
		: value !== null && typeof value === 'object'
			? `{${Object.keys(value)
					.sort()
					.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
					.join(',')}}`
			: JSON.stringify(value);

export const canonicalSha256 = (value: unknown): string => createHash('sha256').update(canonical(value)).digest('hex');

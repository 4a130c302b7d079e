/**
 * Shared by the KYB, Payments and Phone node tests: one emulator per test file, its control routes,
 * and runNode with the credential pointing at it.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { VerificationServicesApi } from '../../credentials/VerificationServicesApi.credentials';
import { clearTokenCache } from '../../nodes/shared/token-cache';
import { type RunNodeResult, runLoadOptions, runNode } from '../helpers/n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');

interface Sandbox {
	url: string;
	baseUrl: string;
	close(): Promise<void>;
}

export interface RecordedRequest {
	route: string;
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	status: number;
}

export interface Stats {
	counts: Record<string, number>;
	total: number;
}

export class Emulator {
	private constructor(private readonly sandbox: Sandbox) {}

	static async start(): Promise<Emulator> {
		return new Emulator((await startSandbox({ port: 0 })) as Sandbox);
	}

	get baseUrl(): string {
		return this.sandbox.baseUrl;
	}

	async close(): Promise<void> {
		await this.sandbox.close();
	}

	private async control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.sandbox.url}/__control${path}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`control ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
		return (await response.json()) as T;
	}

	async reset(): Promise<void> {
		await this.control('POST', '/reset');
	}

	async configure(patch: IDataObject): Promise<void> {
		await this.control('POST', '/config', patch);
	}

	async stats(): Promise<Stats> {
		return await this.control<Stats>('GET', '/stats');
	}

	async count(route: string): Promise<number> {
		return (await this.stats()).counts[route] ?? 0;
	}

	async requests(route: string): Promise<RecordedRequest[]> {
		return await this.control<RecordedRequest[]>('GET', `/requests?route=${encodeURIComponent(route)}`);
	}

	credentials(): IDataObject {
		return {
			environment: 'sandbox',
			sandboxBaseUrl: this.baseUrl,
			apiKey: SANDBOX_API_KEY,
			customerId: SANDBOX_CUSTOMER_ID,
			accessToken: '',
		};
	}

	async run(
		node: INodeType,
		parameters: INodeParameters,
		options: { input?: INodeExecutionData[]; continueOnFail?: boolean } = {},
	): Promise<RunNodeResult> {
		return await runNode({
			node,
			parameters,
			credentials: { verificationServicesApi: this.credentials() as never },
			credentialTypes: [new VerificationServicesApi()],
			input: options.input,
			continueOnFail: options.continueOnFail,
		});
	}

	async loadOptions(node: INodeType, method: string, parameters: INodeParameters) {
		return await runLoadOptions({
			node,
			method,
			parameters,
			credentials: { verificationServicesApi: this.credentials() as never },
			credentialTypes: [new VerificationServicesApi()],
		});
	}
}

/** One emulator for the file, reset (counts, log, state) and token cache cleared before each test. */
export function useEmulator(): () => Emulator {
	let emulator: Emulator | undefined;
	beforeAll(async () => {
		emulator = await Emulator.start();
	});
	afterAll(async () => {
		await emulator?.close();
	});
	beforeEach(async () => {
		clearTokenCache();
		await emulator!.reset();
	});
	return () => emulator!;
}

/** The NodeOperationError/NodeApiError's item index, wherever n8n keeps it. */
export function errorItemIndex(error: unknown): unknown {
	const e = error as { context?: { itemIndex?: unknown }; itemIndex?: unknown };
	return e.context?.itemIndex ?? e.itemIndex;
}

/** Input items from plain objects. */
export const items = (...json: IDataObject[]): INodeExecutionData[] => json.map((j) => ({ json: j }));

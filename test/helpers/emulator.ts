/**
 * One emulator per test file, reset before each test, with its control routes
 * and runNode with the credential pointing at it.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType, OnError } from 'n8n-workflow';

import { type RunNodeOptions, type RunNodeResult, runLoadOptions, runNode } from './n8n';
import { type Sandbox, useSandbox } from './sandbox';

export type { RecordedRequest } from './sandbox';

/** The emulator plus runNode/runLoadOptions with the credential pointing at it. */
export class Emulator {
	constructor(private readonly sandbox: Sandbox) {}

	get baseUrl(): string {
		return this.sandbox.baseUrl;
	}

	close = async () => await this.sandbox.close();
	reset = async () => await this.sandbox.reset();
	configure = async (patch: IDataObject) => await this.sandbox.configure(patch);
	stats = async () => await this.sandbox.stats();
	count = async (route: string) => await this.sandbox.count(route);
	requests = async (route: string) => await this.sandbox.requests(route);

	credentials(): IDataObject {
		return { ...this.sandbox.credentials };
	}

	async run(
		node: INodeType,
		parameters: INodeParameters,
		options: {
			input?: INodeExecutionData[];
			continueOnFail?: boolean;
			onError?: OnError;
			credentials?: Record<string, string>;
			cancelWhen?: Promise<unknown>;
			retry?: RunNodeOptions['retry'];
		} = {},
	): Promise<RunNodeResult> {
		return await runNode({
			node,
			parameters,
			credentials: { verificationServicesApi: { ...this.sandbox.credentials, ...options.credentials } },
			credentialTypes: this.sandbox.credentialTypes,
			input: options.input,
			continueOnFail: options.continueOnFail,
			onError: options.onError,
			cancelWhen: options.cancelWhen,
			retry: options.retry,
		});
	}

	async loadOptions(node: INodeType, method: string, parameters: INodeParameters) {
		return await runLoadOptions({
			node,
			method,
			parameters,
			credentials: { verificationServicesApi: { ...this.sandbox.credentials } },
			credentialTypes: this.sandbox.credentialTypes,
		});
	}
}

/** One emulator for the file, reset (counts, log, state) and token cache cleared before each test. */
export function useEmulator(): () => Emulator {
	const sandbox = useSandbox();
	let emulator: Emulator | undefined;
	return () => (emulator ??= new Emulator(sandbox()));
}

/** The NodeOperationError/NodeApiError's item index, wherever n8n keeps it. */
export function errorItemIndex(error: unknown): unknown {
	const e = error as { context?: { itemIndex?: unknown }; itemIndex?: unknown };
	return e.context?.itemIndex ?? e.itemIndex;
}

/** Input items from plain objects. */
export const items = (...json: IDataObject[]): INodeExecutionData[] => json.map((j) => ({ json: j }));

/**
 * Test harness: runs nodes through n8n's own execution code (n8n-core 2.40 `WorkflowExecute` on a
 * real n8n-workflow `Workflow`), not through mocked contexts.
 *
 *   Input (harness source node, emits `input` items incl. binary) -> node under test
 *
 * Credentials go through HarnessCredentialsHelper (n8n CLI CredentialsHelper semantics), HTTP through
 * n8n-core's real request helpers, binary data through the real BinaryDataService in 'default' mode.
 */
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
	IBinaryData,
	INode,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	IRun,
	IWorkflowBase,
	NodeExecutionHint,
	OnError,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	BINARY_ENCODING,
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
	fileTypeFromMimeType,
} from 'n8n-workflow';

import { type NodeSetupOptions, createAdditionalData, defaultNodeName, setupNode } from './harness-context';
import { reportedErrors } from './n8n-container';
import { SOURCE_NODE_TYPE, createInputNodeType } from './node-types';

export { runWebhook, runWebhookMethod, started } from './webhook';
export type { RunWebhookResult, WebhookRequest } from './webhook';

export const INPUT_NODE_NAME = 'Input';

export interface RunNodeOptions extends NodeSetupOptions {
	/** Items fed to the node (json + optional binary with base64 `data`); default one empty item. */
	input?: INodeExecutionData[];
	/** Sets `node.onError = 'continueRegularOutput'` (what "On Error: Continue" saves in 2.40). */
	continueOnFail?: boolean;
	/** Full control over the node's "On Error" setting; wins over `continueOnFail`. */
	onError?: OnError;
	/** WorkflowExecute mode; default 'manual' (like n8n's own node test harness). */
	mode?: WorkflowExecuteMode;
	/** When this settles, the execution is stopped as the editor's Stop button does (n8n-core's cancel()). */
	cancelWhen?: Promise<unknown>;
	/** The node's "Retry On Fail" settings, as the editor saves them on the node. */
	retry?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
}

export interface RunNodeResult {
	/** First output of the node under test. */
	items: INodeExecutionData[];
	/** All outputs of the node under test. */
	outputs: INodeExecutionData[][];
	/** The node's error when its run failed (class preserved when it was thrown by execute()). */
	error?: Error;
	hints: NodeExecutionHint[];
	/** n8n's full run data; undefined when n8n refused to start (e.g. WorkflowHasIssuesError). */
	run?: IRun;
}

/** Turns the plain-object copy n8n keeps in the run data back into an Error of the right class. */
function reviveError(stored: unknown): Error | undefined {
	if (stored === undefined || stored === null) return undefined;
	if (stored instanceof Error) return stored;
	const plain = stored as { name?: string; message?: string };
	const proto =
		plain.name === 'NodeApiError'
			? NodeApiError.prototype
			: plain.name === 'NodeOperationError'
				? NodeOperationError.prototype
				: Error.prototype;
	return Object.assign(Object.create(proto) as Error, plain);
}

/** n8n-core sniffs MIME types with `await import('file-type')` (ESM-only), which jest refuses by default. */
function withHint(error: Error | undefined): Error | undefined {
	if ((error as { code?: string } | undefined)?.code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG') {
		error!.message +=
			' [harness: n8n-core tried to sniff a MIME type with the ESM-only "file-type" package; pass a mimeType (or a file name with extension) to prepareBinaryData, or run jest with NODE_OPTIONS=--experimental-vm-modules]';
	}
	return error;
}

export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	let nodeName = defaultNodeName(opts.node);
	if (nodeName === INPUT_NODE_NAME) nodeName = `${nodeName} 1`;
	const { credentialsHelper, nodeTypes, node } = setupNode(opts, nodeName);

	let thrown: unknown;
	nodeTypes.add(opts.node, {
		onError: (error) => {
			thrown = error;
		},
	});
	nodeTypes.add(createInputNodeType(opts.input ?? [{ json: {} }]));
	if (opts.continueOnFail) node.onError = 'continueRegularOutput';
	if (opts.onError) node.onError = opts.onError;
	Object.assign(node, opts.retry);

	const inputNode: INode = {
		id: 'harness-input',
		name: INPUT_NODE_NAME,
		type: SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const connections = {
		[INPUT_NODE_NAME]: {
			main: [[{ node: nodeName, type: NodeConnectionTypes.Main, index: 0 }]],
		},
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: [inputNode, node],
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const mode = opts.mode ?? 'manual';
	const additionalData = createAdditionalData(credentialsHelper);
	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		nodes: [inputNode, node],
		connections,
		active: false,
		settings: workflow.settings,
	} as unknown as IWorkflowBase;
	additionalData.hooks = new ExecutionLifecycleHooks(mode, additionalData.executionId!, workflowData);

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: workflow.nodes[INPUT_NODE_NAME], data: { main: [[{ json: {} }]] }, source: null },
			],
		},
	});

	const reportedBefore = reportedErrors.length;
	let run: IRun | undefined;
	let startError: unknown;
	try {
		const running = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
		void opts.cancelWhen?.finally(() => running.cancel());
		run = await running;
	} catch (error) {
		startError = error;
	}

	const taskData = run?.data.resultData.runData[nodeName]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	const storedError = taskData?.error ?? run?.data.resultData.error;
	// Prefer the instance itself: thrown out of execute(), else the one n8n-core handed to its
	// ErrorReporter (declarative nodes), else a revived copy of what the run data kept.
	const reported = reportedErrors
		.slice(reportedBefore)
		.reverse()
		.find((e): e is Error => e instanceof Error && e.message === storedError?.message);
	// With Retry On Fail a later try may succeed after execute() threw: then the run kept no error.
	const finalThrow = storedError !== undefined || startError !== undefined ? (thrown as Error | undefined) : undefined;
	const error = withHint(
		finalThrow ??
			reported ??
			reviveError(storedError) ??
			reviveError(startError),
	);

	return {
		items: outputs[0] ?? [],
		outputs,
		error,
		hints: taskData?.hints ?? [],
		run,
	};
}

/** A binary property as a test input item carries it in n8n's 'default' mode (base64 inline). */
export function binaryData(
	content: Buffer | string,
	options: { mimeType: string; fileName?: string },
): IBinaryData {
	const buffer = typeof content === 'string' ? Buffer.from(content) : content;
	const fileExtension = options.fileName?.includes('.')
		? options.fileName.split('.').pop()
		: undefined;
	return {
		data: buffer.toString(BINARY_ENCODING),
		mimeType: options.mimeType,
		fileType: fileTypeFromMimeType(options.mimeType),
		...(options.fileName ? { fileName: options.fileName } : {}),
		...(fileExtension ? { fileExtension } : {}),
		bytes: buffer.length,
	};
}

export interface RunNodeMethodOptions extends NodeSetupOptions {
	method: string;
}

/** Like n8n's DynamicNodeParametersService: a temp workflow with 'Temp-Node' and a LoadOptionsContext. */
function loadOptionsContext(opts: RunNodeMethodOptions) {
	const { credentialsHelper, nodeTypes, node } = setupNode(opts, 'Temp-Node');
	nodeTypes.add(opts.node);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const tempNode = workflow.nodes['Temp-Node'];
	// The editor sends the node's full parameters (defaults included); the Workflow applied them.
	const additionalData = createAdditionalData(credentialsHelper, {
		currentNodeParameters: tempNode.parameters,
	});
	const context = new LoadOptionsContext(workflow, tempNode, additionalData, 'parameters');
	return { context, nodeType };
}

function getMethod(nodeType: INodeType, kind: 'loadOptions', name: string) {
	const method = (nodeType.methods?.[kind] as Record<string, unknown> | undefined)?.[name];
	if (typeof method !== 'function') {
		throw new UnexpectedError(`Node type does not have ${kind} method "${name}" defined`);
	}
	return method as (this: unknown, ...args: unknown[]) => Promise<unknown>;
}

/** Calls `node.methods.loadOptions[method]` with a real LoadOptionsContext. */
export async function runLoadOptions(opts: RunNodeMethodOptions): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = loadOptionsContext(opts);
	return (await getMethod(nodeType, 'loadOptions', opts.method).call(
		context,
	)) as INodePropertyOptions[];
}

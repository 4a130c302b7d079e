/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * Webhook nodes, the way n8n's CLI drives them:
 *  - runWebhook: `webhook()` with a real n8n-core WebhookContext and express-like fake req/res
 *    (what WebhookService.runWebhook does for an incoming request);
 *  - runWebhookMethod: `webhookMethods[name].checkExists|create|delete` with a real HookContext
 *    (what activation / deactivation does), with workflow static data in and out.
 */
import { EventEmitter } from 'node:events';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow, deepCopy } from 'n8n-workflow';

import { type NodeSetupOptions, createAdditionalData, defaultNodeName, setupNode } from './harness-context';

export interface WebhookRequest {
	/** Default: the webhook description's httpMethod. */
	method?: IHttpRequestMethods;
	headers?: Record<string, string | string[]>;
	/** Parsed body (what express' body parser leaves in req.body). */
	body?: unknown;
	/** Raw body bytes (req.rawBody, used for signature checks); default: JSON of `body`. */
	rawBody?: Buffer | string;
	query?: Record<string, string | string[]>;
	params?: Record<string, string>;
}

export interface RecordedResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body?: unknown;
	/** True once the node sent/ended the response itself (responseMode 'onReceived' is not needed). */
	ended: boolean;
}

interface WebhookSetup extends NodeSetupOptions {
	/** Workflow static data before the call (e.g. `{ 'node:QES Trigger': { webhookId: 'x' } }`). */
	staticData?: IDataObject;
	webhookId?: string;
	isTest?: boolean;
}

export interface RunWebhookOptions extends WebhookSetup {
	request: WebhookRequest;
	/** Default 'webhook' (production URL); the editor's test URL runs in 'manual'. */
	mode?: WorkflowExecuteMode;
}

export interface RunWebhookResult {
	/** What webhook() returned (workflowData, webhookResponse, noWebhookResponse). */
	response?: IWebhookResponseData;
	error?: Error;
	/** What the node wrote to the response object. */
	res: RecordedResponse;
	staticData: IDataObject;
}

export interface RunWebhookMethodOptions extends WebhookSetup {
	method: 'checkExists' | 'create' | 'delete';
	activation?: WorkflowActivateMode;
	mode?: WorkflowExecuteMode;
}

export interface RunWebhookMethodResult {
	result?: boolean;
	error?: Error;
	staticData: IDataObject;
	/** URL n8n would register for this webhook (what getNodeWebhookUrl returns to the node). */
	webhookUrl?: string;
}

function lowerCaseKeys<T>(record: Record<string, T> = {}): Record<string, T> {
	return Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]));
}

function createRequest(request: WebhookRequest, method: IHttpRequestMethods, path: string) {
	const headers = lowerCaseKeys(request.headers);
	const rawBody =
		request.rawBody === undefined
			? Buffer.from(request.body === undefined ? '' : JSON.stringify(request.body))
			: Buffer.from(request.rawBody);
	const header = (name: string) => headers[name.toLowerCase()];
	return {
		method,
		url: path,
		path,
		originalUrl: path,
		headers,
		body: request.body ?? {},
		rawBody,
		query: request.query ?? {},
		params: request.params ?? {},
		header,
		get: header,
	};
}

function createResponse() {
	const recorded: RecordedResponse = { statusCode: 200, headers: {}, ended: false };
	const events = new EventEmitter();
	const finish = (body?: unknown) => {
		if (body !== undefined) recorded.body = body;
		recorded.ended = true;
		res.headersSent = true;
		res.writableEnded = true;
		res.writableFinished = true;
		events.emit('finish');
		events.emit('close');
	};
	// What this package's triggers use of n8n's Express response: status().json(), once(), headersSent.
	const res = {
		headersSent: false,
		writableEnded: false,
		writableFinished: false,
		once(event: string, listener: () => void) {
			events.once(event, listener);
			return res;
		},
		/** What n8n does after webhook() returned, when the node did not answer itself (not recorded). */
		answeredByN8n(statusCode: number) {
			if (res.writableFinished) return;
			res.writableFinished = true;
			const recordedCode = recorded.statusCode;
			recorded.statusCode = statusCode;
			events.emit('finish');
			events.emit('close');
			recorded.statusCode = recordedCode;
		},
		get statusCode() {
			return recorded.statusCode;
		},
		set statusCode(code: number) {
			recorded.statusCode = code;
		},
		status(code: number) {
			recorded.statusCode = code;
			return res;
		},
		json(body: unknown) {
			recorded.headers['content-type'] = 'application/json; charset=utf-8';
			finish(body);
			return res;
		},
	};
	return { res, recorded };
}

function prepare(opts: WebhookSetup, extra: Partial<IWorkflowExecuteAdditionalData>) {
	const nodeName = defaultNodeName(opts.node);
	const { credentialsHelper, nodeTypes, node } = setupNode(opts, nodeName);
	node.webhookId = opts.webhookId ?? 'harness-webhook-id';
	nodeTypes.add(opts.node);
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: deepCopy(opts.staticData ?? {}),
		settings: { executionOrder: 'v1' },
	});
	const workflowNode = workflow.nodes[nodeName];
	const nodeType: INodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const additionalData = createAdditionalData(credentialsHelper, extra);

	const description = nodeType.description.webhooks?.find((w) => w.name === 'default');
	if (!description) throw new UnexpectedError('Node has no webhook description "default"');
	// Both triggers declare a literal method and path (nodes/shared/delivery/delivery-webhook.ts).
	const webhookData: IWebhookData = {
		httpMethod: description.httpMethod as IHttpRequestMethods,
		node: nodeName,
		path: description.path as string,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
		isTest: opts.isTest,
	};
	return { workflow, workflowNode, nodeType, additionalData, webhookData };
}

export async function runWebhook(opts: RunWebhookOptions): Promise<RunWebhookResult> {
	const mode = opts.mode ?? 'webhook';
	const { res, recorded } = createResponse();
	const httpRequest = {} as Record<string, unknown>;
	const setup = prepare(opts, {
		httpRequest: httpRequest as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
		httpResponse: res as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
	});
	const { workflow, workflowNode, nodeType, additionalData, webhookData } = setup;
	Object.assign(
		httpRequest,
		createRequest(opts.request, opts.request.method ?? webhookData.httpMethod, `/webhook/${webhookData.path}`),
	);

	const context = new WebhookContext(workflow, workflowNode, additionalData, mode, webhookData, [], null);
	let response: IWebhookResponseData | undefined;
	let error: Error | undefined;
	try {
		// This package's triggers implement INodeType, not n8n's Node class.
		if (!nodeType.webhook) throw new UnexpectedError('Node has no webhook() method');
		response = await nodeType.webhook.call(context);
	} catch (caught) {
		error = caught as Error;
	}
	res.answeredByN8n(error ? 500 : 200);
	return {
		response,
		error,
		res: recorded,
		staticData: deepCopy(workflow.staticData as IDataObject),
	};
}

/** The json of the items a webhook call started the workflow with (none when it started nothing). */
export const started = (result: RunWebhookResult) => result.response?.workflowData?.[0]?.map((item) => item.json) ?? [];

export async function runWebhookMethod(opts: RunWebhookMethodOptions): Promise<RunWebhookMethodResult> {
	const mode = opts.mode ?? 'trigger';
	const { workflow, workflowNode, nodeType, additionalData, webhookData } = prepare(opts, {});
	const fn = nodeType.webhookMethods?.default?.[opts.method];
	if (typeof fn !== 'function') throw new UnexpectedError(`Node has no webhookMethods.default.${opts.method}`);
	const context = new HookContext(
		workflow,
		workflowNode,
		additionalData,
		mode,
		opts.activation ?? 'activate',
		webhookData,
	);
	let result: boolean | undefined;
	let error: Error | undefined;
	try {
		result = await fn.call(context);
	} catch (caught) {
		error = caught as Error;
	}
	return {
		result,
		error,
		staticData: deepCopy(workflow.staticData as IDataObject),
		webhookUrl: context.getNodeWebhookUrl('default'),
	};
}

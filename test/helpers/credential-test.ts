/**
 * What n8n's CredentialsTester (packages/cli/src/services/credentials-tester.service.ts) does for a
 * credential whose `test` is an ICredentialTestRequest: apply defaults + expressions, run the test
 * request through n8n-core's RoutingNode on a NoOp carrier node (so preAuthentication always runs,
 * then authenticate), and map the outcome to the status/message n8n shows in the editor.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsDecrypted,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	ITaskDataConnections,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import type { CredentialUpdate } from './credentials-helper';
import {
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
	nodeCredentialsFor,
} from './credentials-helper';
import { createAdditionalData } from './harness-context';
import { ensureN8nContainer } from './n8n-container';
import { HarnessNodeTypes, NO_OP_NODE_TYPE } from './node-types';

/** lodash.get for 'a.b[0].c' paths (what n8n uses on responseSuccessBody rules). */
function getPath(value: unknown, path: string): unknown {
	return path
		.replace(/\[(\w+)\]/g, '.$1')
		.split('.')
		.filter(Boolean)
		.reduce<unknown>(
			(current, key) =>
				current === null || current === undefined
					? undefined
					: (current as Record<string, unknown>)[key],
			value,
		);
}

export interface CredentialTestOptions {
	credentialType: ICredentialType;
	/** The credential data as entered/saved in the editor. */
	data: ICredentialDataDecryptedObject;
	/** Other credential types needed (parents listed in `extends`). */
	credentialTypes?: ICredentialType[];
}

export interface CredentialTestResult extends INodeCredentialTestResult {
	credentialUpdates: CredentialUpdate[];
}

export async function runCredentialTest(opts: CredentialTestOptions): Promise<CredentialTestResult> {
	ensureN8nContainer();
	const { credentialType } = opts;
	const type = credentialType.name;
	const credentialTypes = new HarnessCredentialTypes([
		...(opts.credentialTypes ?? []),
		credentialType,
	]);
	const credentialsHelper = new HarnessCredentialsHelper(credentialTypes, { [type]: opts.data });
	const done = (result: INodeCredentialTestResult): CredentialTestResult => ({
		...result,
		credentialUpdates: credentialsHelper.updates,
	});

	const testRequest = credentialType.test;
	if (!testRequest) {
		// n8n would also look for `testedBy` on nodes; the harness only supports `credentialType.test`.
		return done({ status: 'Error', message: 'No testing function found for this credential.' });
	}

	const { id, name } = nodeCredentialsFor(type);
	const credentialsDecrypted: ICredentialsDecrypted = { id: id!, name, type, data: opts.data };

	try {
		credentialsDecrypted.data = await credentialsHelper.applyDefaultsAndOverwrites(
			createAdditionalData(credentialsHelper),
			opts.data,
			type,
			'internal',
		);
	} catch (error) {
		return done({ status: 'Error', message: (error as Error).message.toString() });
	}

	const nodeType = NO_OP_NODE_TYPE;
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: Array.isArray(nodeType.description.version)
			? nodeType.description.version.slice(-1)[0]
			: nodeType.description.version,
		position: [0, 0],
		credentials: { [type]: { id, name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.add(nodeTypeCopy, { name: nodeTypeCopy.description.name });
	// The Workflow constructor applies the `temp: ''` default that marks this as a credential test.
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });

	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const connectionInputData: INodeExecutionData[] = [];
	const executeData: IExecuteData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		createAdditionalData(credentialsHelper),
		'internal',
		createRunExecutionData({ executionData: null }),
		0,
		connectionInputData,
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return done({ status: 'Error', message: rule.properties.message });
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return done({
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				});
			}
		} else if (error.cause?.code) {
			return done({ status: 'Error', message: error.cause.code });
		}
		return done({ status: 'Error', message: error.message.toString() });
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response![0][0].json;
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return done({ status: 'Error', message: rule.properties.message });
			}
		}
	}
	return done({ status: 'OK', message: 'Connection successful!' });
}

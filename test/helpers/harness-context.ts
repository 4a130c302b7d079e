/** Shared pieces: n8n's IWorkflowExecuteAdditionalData and the INode of the node under test. */
import { randomUUID } from 'node:crypto';

import { ExternalSecretsProxy } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeCredentials,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { UnexpectedError, deepCopy } from 'n8n-workflow';

import {
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
	nodeCredentialsFor,
} from './credentials-helper';
import { ensureN8nContainer } from './n8n-container';
import { HarnessNodeTypes, nodeTypeName, typeVersionOf } from './node-types';

export const HARNESS_BASE_URL = 'http://localhost:5678';

export function createAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const unavailable = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper,
		executeWorkflow: unavailable('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unavailable('startRunnerTask'),
		logAiEvent: () => {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		executionId: `harness-${randomUUID()}`,
		userId: 'harness-user',
		variables: {},
		restApiUrl: `${HARNESS_BASE_URL}/rest`,
		instanceBaseUrl: `${HARNESS_BASE_URL}/`,
		formBaseUrl: `${HARNESS_BASE_URL}/form`,
		formWaitingBaseUrl: `${HARNESS_BASE_URL}/form-waiting`,
		formTestBaseUrl: `${HARNESS_BASE_URL}/form-test`,
		webhookBaseUrl: `${HARNESS_BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${HARNESS_BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${HARNESS_BASE_URL}/webhook-test`,
		mcpBaseUrl: `${HARNESS_BASE_URL}/mcp`,
		mcpTestBaseUrl: `${HARNESS_BASE_URL}/mcp-test`,
		...extra,
	};
}

export interface NodeSetupOptions {
	node: INodeType;
	parameters: INodeParameters;
	/** Stored credential data by credential type name, e.g. `{ verificationServicesApi: {...} }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Instances of the credential classes used (and of their `extends` parents). */
	credentialTypes?: ICredentialType[];
}

export function setupNode(opts: NodeSetupOptions, nodeName: string) {
	ensureN8nContainer();
	const credentialTypes = new HarnessCredentialTypes(opts.credentialTypes ?? []);
	const credentialsHelper = new HarnessCredentialsHelper(credentialTypes, opts.credentials ?? {});
	const nodeTypes = new HarnessNodeTypes();

	const credentials: INodeCredentials = {};
	for (const type of Object.keys(opts.credentials ?? {})) credentials[type] = nodeCredentialsFor(type);

	const node: INode = {
		id: randomUUID(),
		name: nodeName,
		type: nodeTypeName(opts.node),
		typeVersion: typeVersionOf(opts.node),
		position: [250, 0],
		parameters: deepCopy(opts.parameters),
		...(Object.keys(credentials).length ? { credentials } : {}),
	};
	return { credentialTypes, credentialsHelper, nodeTypes, node };
}

/** The name n8n gives a freshly added node: its `defaults.name`, else its display name. */
export function defaultNodeName(node: INodeType): string {
	const { description } = node;
	const defaults = (description as { defaults?: { name?: string } }).defaults;
	return defaults?.name ?? description.displayName;
}

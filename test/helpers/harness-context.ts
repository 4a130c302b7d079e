/**
 * What the harness builds a run from: n8n's IWorkflowExecuteAdditionalData, the INode of the node
 * under test, and the credentials (HarnessCredentialsHelper, below).
 */
import { randomUUID } from 'node:crypto';

import { Credentials, ExternalSecretsProxy, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialTypes,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentials,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
	deepCopy,
} from 'n8n-workflow';

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
	/** The node version the workflow was saved at; default the node's newest. */
	typeVersion?: number;
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
		typeVersion: opts.typeVersion ?? typeVersionOf(opts.node),
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

/**
 * Credentials for the harness, following n8n's CLI `CredentialsHelper`
 * (packages/cli/src/credentials-helper.ts, 2.40) with the database replaced by an in-memory store
 * of the test's credential data:
 *  - getDecrypted: stored data -> defaults of the credential type's properties
 *    (NodeHelpers.getNodeParameters) -> `={{ }}` expressions resolved through `workflow.expression`
 *    (against the running node when n8n-core passes expressionResolveValues, else a throwaway
 *    workflow in the given mode, as n8n does);
 *  - getCredentials returns n8n-core's real `Credentials` (encrypted with the real Cipher);
 *  - authenticate, preAuthentication and updateCredentials refuse: n8n calls them for its own
 *    authenticated requests (the HTTP Request node), never for this package's nodes, which add the
 *    token themselves (the credential's hooks run in real n8n: test/e2e/several-accounts.e2e.test.js).
 * Not mirrored (this package's credentials use none of it): credential overwrites, external secrets,
 * dynamic/end-user credentials, AI gateway, OAuth, declarative authenticate, credential types that
 * extend others or restrict themselves to supported nodes, allowed HTTP request domains, and the
 * credential tester (its Test button runs in real n8n: test/e2e/credential.e2e.test.js).
 */
export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly byName = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = []) {
		for (const type of types) this.byName.set(type.name, type);
	}

	recognizes(type: string): boolean {
		return this.byName.has(type);
	}

	getByName(type: string): ICredentialType {
		const credentialType = this.byName.get(type);
		if (!credentialType) {
			throw new UnexpectedError(
				`Unknown credential type "${type}": pass an instance of it in credentialTypes`,
			);
		}
		return credentialType;
	}

	getSupportedNodes(type: string): string[] {
		return this.byName.get(type)?.supportedNodes ?? [];
	}

	/** This package's credential types extend none. */
	getParentTypes(): string[] {
		return [];
	}
}

/** The id/name a node refers to its credential by; one credential per type in the harness. */
export function nodeCredentialsFor(type: string): INodeCredentialsDetails {
	return { id: `harness-${type}`, name: `${type} (harness)` };
}

const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

function createMockNodeTypes() {
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.add({ description: { properties: [] } } as unknown as INodeType, { name: 'mock' });
	return nodeTypes;
}

const NOT_FOR_THESE_NODES = "n8n authenticates its own requests with a credential (the HTTP Request node's), not this package's nodes: they add their token themselves";

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, ICredentialDataDecryptedObject>();

	constructor(
		readonly credentialTypes: HarnessCredentialTypes,
		stored: Record<string, ICredentialDataDecryptedObject> = {},
	) {
		super();
		for (const [type, data] of Object.entries(stored)) this.store.set(type, deepCopy(data));
	}

	getParentTypes(): string[] {
		return [];
	}

	/** This package's credential types do not restrict themselves to supported nodes. */
	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** n8n calls the three for its own authenticated requests, never for this package's nodes. */
	async authenticate(): Promise<IHttpRequestOptions> {
		throw new UnexpectedError(NOT_FOR_THESE_NODES);
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		throw new UnexpectedError(NOT_FOR_THESE_NODES);
	}

	/** n8n calls it only for OAuth2 credentials, which this package has none of. */
	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		throw new UnexpectedError('OAuth credentials are not mirrored');
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const data = this.getStoredOrThrow(nodeCredentials, type);
		const credentials = new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
		await credentials.setData(data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const decryptedDataOriginal = await (await this.getCredentials(nodeCredentials, type)).getData();
		if (raw === true) return decryptedDataOriginal;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Defaults of the credential type's properties, then expression resolution (no overwrites here). */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentialsProperties = this.getCredentialsProperties(type);

		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			{ ...decryptedDataOriginal } as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			try {
				decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
					decryptedData as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decryptedData,
				) as ICredentialDataDecryptedObject;
			} catch (e) {
				(e as Error).message += ' [Error resolving credentials]';
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a test helper passes the error on unchanged
				throw e;
			}
		} else {
			const workflow = new Workflow({
				nodes: [{ ...mockNode }],
				connections: {},
				active: false,
				nodeTypes: createMockNodeTypes(),
			});
			await workflow.expression.acquireIsolate();
			try {
				decryptedData = workflow.expression.getComplexParameterValue(
					mockNode,
					decryptedData as INodeParameters,
					mode,
					additionalKeys,
					undefined,
					undefined,
					decryptedData,
				) as ICredentialDataDecryptedObject;
			} finally {
				await workflow.expression.releaseIsolate();
			}
		}
		return decryptedData;
	}

	async updateCredentials(): Promise<void> {
		throw new UnexpectedError(NOT_FOR_THESE_NODES);
	}

	/** n8n calls it only for OAuth credentials, which this package has none of. */
	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new UnexpectedError('OAuth credentials are not mirrored');
	}

	/** This package's credential types extend none and are not OAuth: their own properties are all. */
	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getByName(type).properties;
	}

	private getStoredOrThrow(nodeCredentials: INodeCredentialsDetails, type: string) {
		if (!nodeCredentials?.id) {
			throw new UserError(`Credential "${nodeCredentials?.name}" of type "${type}" has no ID.`);
		}
		const data = this.store.get(type);
		if (data === undefined) {
			throw new UserError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		return deepCopy(data);
	}
}

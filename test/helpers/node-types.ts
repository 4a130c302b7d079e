/**
 * A tiny INodeTypes registry (what n8n's NodeTypes / LoadNodesAndCredentials give WorkflowExecute),
 * plus the harness' own "Input" source node.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError, deepCopy } from 'n8n-workflow';

import { name as packageName } from '../../package.json';

/** n8n registers community nodes as `<package name>.<description.name>`. */
export function nodeTypeName(node: INodeType): string {
	const { name } = node.description;
	return name.includes('.') ? name : `${packageName}.${name}`;
}

/** The version n8n's editor gives a new node: the package's nodes each have one. */
export function typeVersionOf(node: INodeType): number {
	const { version } = node.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

type ErrorSink = (error: unknown) => void;

/**
 * Observes (never alters) errors thrown by `execute`: n8n-core stores a node's error in the run data
 * as a plain-object copy (`{ ...error }`), which loses the class, so the harness keeps the original.
 * The wrapper inherits from the real node type, so `NODE_CLASS_TAG in nodeType` still holds.
 */
function observeExecuteErrors(nodeType: INodeType, sink: ErrorSink): INodeType {
	const original = nodeType.execute as unknown as
		| ((this: unknown, ...args: unknown[]) => Promise<unknown>)
		| undefined;
	if (typeof original !== 'function') return nodeType;
	const wrapper = Object.create(nodeType) as INodeType;
	const execute = async function (this: unknown, ...args: unknown[]) {
		try {
			// Node-class instances are called as `nodeType.execute(context)`: keep the original `this`.
			return await original.apply(this === wrapper ? nodeType : this, args);
		} catch (error) {
			sink(error);
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a test helper passes the error on unchanged
			throw error;
		}
	};
	(wrapper as unknown as { execute: typeof execute }).execute = execute;
	return wrapper;
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType>();

	private readonly sinks = new Map<string, ErrorSink>();

	private readonly resolved = new Map<string, INodeType>();

	add(node: INodeType, options: { name?: string; onError?: ErrorSink } = {}) {
		const name = options.name ?? nodeTypeName(node);
		this.types.set(name, node);
		if (options.onError) this.sinks.set(name, options.onError);
		return name;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new UnexpectedError(`Unknown node type "${nodeType}" (not registered in the test)`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const key = `${nodeType}@${version ?? 'default'}`;
		let resolved = this.resolved.get(key);
		if (!resolved) {
			resolved = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
			const sink = this.sinks.get(nodeType);
			if (sink) resolved = observeExecuteErrors(resolved, sink);
			this.resolved.set(key, resolved);
		}
		return resolved;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** The node that feeds the test's items (json + binary) into the node under test. */
export const SOURCE_NODE_TYPE = 'n8n-harness.input';

export function createInputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Harness Input',
			name: SOURCE_NODE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Emits the items given to the test harness',
			defaults: { name: 'Input' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(): Promise<INodeExecutionData[][]> {
			// Fresh copies per run; every item derives from the single (empty) start item.
			return [items.map((item) => ({ ...deepCopy(item), pairedItem: { item: 0 } }))];
		},
	};
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { keepFields } from '../responses/keep-fields';
import type { OperationDefinition } from './operation-types';

/**
 * n8n's Simplify switch (UX guideline: an answer of more than ten fields), outside an agent: the
 * operations marked `simplify` then output their simplified item. An AI tool has its own Output
 * choice instead (tool-output.ts).
 */
export function simplifyProperties(operations: OperationDefinition[]): INodeProperties[] {
	const simplifiable = operations.filter((op) => simplifier(op)).map((op) => op.value);
	if (!simplifiable.length) return [];
	return [
		{
			displayName: 'Simplify',
			name: 'simple',
			type: 'boolean',
			default: true,
			displayOptions: { show: { operation: simplifiable }, hide: { '@tool': [true] } },
			description: 'Whether to return a simplified version of the response instead of the raw data',
		},
	];
}

/** What Simplify makes of one item's json, for the operations that offer it (none: the operation has no Simplify). */
export function simplifier(
	op: OperationDefinition,
): ((json: IDataObject) => IDataObject) | undefined {
	if (Array.isArray(op.simplify)) return selector(op, op.simplify);
	return op.simplify ? op.toolSummary : undefined;
}

/** The item's json with only these fields; the operation's receipt (money sent, message sent) kept. */
export function selector(
	op: OperationDefinition,
	paths: string[],
): (json: IDataObject) => IDataObject {
	const kept = op.receipt ? [...paths, op.receipt] : paths;
	return (json) => keepFields(json, kept);
}

/** The items with Simplify on: each item's json replaced by its simplified form, files and pairing kept. */
export function simplified(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	const summarise = simplifier(op);
	if (!summarise) return items;
	return items.map((item) => {
		const isErrorItem = typeof item.json.error === 'string';
		if (isErrorItem || ctx.getNodeParameter('simple', pairedIndexOf(item), true) !== true)
			return item;
		return { ...item, json: summarise(item.json) };
	});
}

/** The index of the input item an output item comes from. */
export function pairedIndexOf(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired ? paired.item : 0;
}

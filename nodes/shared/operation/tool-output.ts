import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { withoutEvidence } from './evidence';
import { listEntries } from '../fields/rules';
import type { OperationDefinition } from './operation-types';
import { selector, simplifier } from './simplify';

/**
 * What a node attached to an n8n AI Agent gives the agent's model. n8n hands the model the json of
 * the tool node's output items (n8n-nodes-langchain buildSteps: JSON.stringify of every item's json),
 * so long responses cost context and attention, and files must never reach it. When the node runs
 * as a tool, its output is what the model reads; the normal node output stays complete.
 */

/** The most items a tool answer holds in Summary mode; the rest is counted in a closing note. */
const MAX_TOOL_ITEMS = 20;
/** Strings at least this long that look like base64 (file content) are replaced by a placeholder. */
const MIN_BASE64_LENGTH = 200;
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;
const DATA_URL = /^data:[^,]{0,100};base64,/i;

/**
 * n8n gives a node attached to an agent the type `<package>.<name>Tool` (1.x and 2.x alike).
 * `isToolExecution()` is no help here: n8n 2.x runs a tool for the agent's engine requests in an
 * ExecuteContext whose isToolExecution() always answers false, and n8n 1.x lacks the method.
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * As a tool, a failing item becomes an error item the model reads and can correct (n8n 2.x does
 * the same with the message alone; 1.x would stop the whole run), unless the node's On Error setting
 * says Stop Workflow.
 */
export function toolErrorsGoToModel(ctx: IExecuteFunctions): boolean {
	return runsAsTool(ctx) && ctx.getNode().onError !== 'stopWorkflow';
}

/** What the model reads about the tool: an action's effect comes first, in capitals. */
export function toolDescriptionOf(op: OperationDefinition): string {
	const text = op.toolDescription ?? op.description;
	return op.effect ? `${op.effect.does.toUpperCase()}: ${text}` : text;
}

/**
 * The description the model reads, one per operation, pre-filled from the operation table (n8n uses a
 * node's own `toolDescription` parameter as the tool's description, in 1.x and 2.x); shown only on
 * the Tool variant ('@tool').
 */
export function toolDescriptionProperties(operations: OperationDefinition[]): INodeProperties[] {
	return operations.map((op) => {
		// The scanner lints with inline directives off; a plain identifier as the default is what it accepts.
		const toolDescription = toolDescriptionOf(op);
		return {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: toolDescription,
			required: true,
			typeOptions: { rows: 4 },
			displayOptions: { show: { '@tool': [true], operation: [op.value] } },
			description:
				'What the AI model reads about this tool: what it does, which values it must supply, and what it costs or changes',
		};
	});
}

/**
 * The choice between summary and full response, for every operation of the Tool variant. n8n's
 * wording (Microsoft Entra, Remove Duplicates): Simplified / Raw / Selected Fields.
 */
export const toolOutputProperties: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'toolOutput',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{
				name: 'Simplified',
				value: 'summary',
				description:
					'What the model needs (verdicts, names, IDs for a follow-up call); saves context',
			},
			{
				name: 'Raw',
				value: 'full',
				description: 'The whole API response, as the node outputs it outside an agent',
			},
			{
				name: 'Selected Fields',
				value: 'fields',
				description: 'Only the fields you list',
			},
		],
		default: 'summary',
		description:
			'What the AI model receives. Files are never passed to the model, only their names and sizes.',
	},
	{
		displayName: 'Fields',
		name: 'toolFields',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. referenceId, riskAssessment.score',
		displayOptions: { show: { '@tool': [true], toolOutput: ['fields'] } },
		description:
			'The fields the AI model receives, separated by commas; a dotted path reaches into an object or every entry of a list. Errors, warnings and receipts of money or messages are always included.',
	},
];

/** How the model reads one item's json in the chosen Output: Simplified, Raw or Selected Fields. */
function modelView(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	output: unknown,
): ((json: IDataObject) => IDataObject) | undefined {
	if (output === 'full') return undefined;
	if (output === 'fields') {
		return selector(op, listEntries(ctx.getNodeParameter('toolFields', 0, '')));
	}
	const summarise = op.toolSummary ?? simplifier(op);
	return (json) => withoutEvidence(summarise ? summarise(json) : json);
}

/** The node's output as the model should read it when the node runs as a tool. */
export function toolOutput(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	// No item would reach the model as "": say that the call worked and found nothing.
	if (items.length === 0)
		return [
			{
				json: { resultCount: 0, note: 'The request succeeded and returned no results.' },
				pairedItem: { item: 0 },
			},
		];
	const output = ctx.getNodeParameter('toolOutput', 0, 'summary');
	const full = output === 'full';
	const listed = full ? items : items.slice(0, MAX_TOOL_ITEMS);
	const view = modelView(ctx, op, output);
	const answer = listed.map((item) => forModel(item, view));
	if (listed.length < items.length) {
		answer.push({
			json: {
				note: `${items.length - listed.length} more results not shown (${items.length} in all). Narrow the request to see them.`,
			},
			pairedItem: listed[listed.length - 1]?.pairedItem,
		});
	}
	return answer;
}

function forModel(
	item: INodeExecutionData,
	summarise?: (json: IDataObject) => IDataObject,
): INodeExecutionData {
	const isErrorItem = typeof item.json.error === 'string';
	const json = summarise && !isErrorItem ? summarise(item.json) : item.json;
	const files = describeBinary(item.binary);
	const cleaned = withoutFileContent(json) as IDataObject;
	return {
		json: files.length ? { ...cleaned, files } : cleaned,
		...(item.pairedItem !== undefined ? { pairedItem: item.pairedItem } : {}),
	};
}

/** Names and sizes of the item's files, never their content. */
function describeBinary(binary: IBinaryKeyData | undefined): IDataObject[] {
	return Object.entries(binary ?? {}).map(([property, data]) => ({
		binaryProperty: property,
		fileName: data.fileName ?? null,
		mimeType: data.mimeType,
		fileSize: data.fileSize ?? null,
		note: 'File kept in the workflow; its content is not given to the model.',
	}));
}

/** Replaces base64 file content and data: URLs anywhere in the json with a short placeholder. */
function withoutFileContent(value: unknown): unknown {
	if (typeof value === 'string') {
		const compact =
			value.length >= MIN_BASE64_LENGTH && (DATA_URL.test(value) || BASE64.test(value));
		return compact ? `[file content omitted: ${value.length} characters]` : value;
	}
	if (Array.isArray(value)) return value.map(withoutFileContent);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, inner]) => [key, withoutFileContent(inner)]),
		);
	}
	return value;
}

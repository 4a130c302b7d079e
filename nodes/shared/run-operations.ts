import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { FieldError } from './field-error';
import type { ApiRequest, FieldValues, ItemContext, OperationDefinition } from './operation-types';
import { readRequestSettings } from './request-settings';
import { toolErrorsGoToModel, toolOutput } from './tool-output';
import { ApiClient } from './transport';

/**
 * A node's execute(): validates every item first (nothing is sent while any item is invalid, unless
 * Continue On Fail turns that item into an error item), then sends the valid items through the shared
 * request path with bounded concurrency, and returns the output in input order with pairedItem.
 */
export async function runOperations(
	ctx: IExecuteFunctions,
	operations: OperationDefinition[],
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const operationValue = ctx.getNodeParameter('operation', 0) as string;
	const op = operations.find((o) => o.value === operationValue);
	if (!op) throw new NodeOperationError(ctx.getNode(), `Unknown operation "${operationValue}"`);

	const continueOnFail = ctx.continueOnFail() || toolErrorsGoToModel(ctx);
	const results: INodeExecutionData[][] = new Array(items.length);
	const ready: Array<{ itemIndex: number; values: FieldValues }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			ready.push({ itemIndex, values: readValues(ctx, op, itemIndex) });
		} catch (error) {
			const failure = asNodeError(ctx, error, itemIndex, op);
			if (!continueOnFail) throw failure;
			results[itemIndex] = [errorItem(ctx, failure, itemIndex)];
		}
	}

	if (ready.length) {
		const settings = readRequestSettings(ctx);
		const client = await ApiClient.create(ctx, settings);
		const failed: Array<{ itemIndex: number; error: NodeApiError | NodeOperationError }> = [];
		const started = await forEachBounded(ready, settings.maxConcurrentRequests, ctx, async ({ itemIndex, values }) => {
			try {
				const produced = await runItem(ctx, client, op, itemIndex, values);
				results[itemIndex] = produced.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
			} catch (error) {
				const failure = asNodeError(ctx, error, itemIndex, op);
				if (!continueOnFail) {
					failed.push({ itemIndex, error: failure });
					throw failure;
				}
				results[itemIndex] = [errorItem(ctx, failure, itemIndex)];
			}
		});
		if (failed.length) {
			if (op.repeatable || ready.length === 1) throw failed[0].error;
			throw partialFailure(ctx, op, { ready, started, failed, results });
		}
	}
	// With the error output, n8n itself moves the items that carry `error` there (handleNodeErrorOutput).
	return [toolOutput(ctx, op, results.flat())];
}

/** True when the node's "On Error" is "Continue (using error output)": failed items leave there. */
function errorOutput(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().onError === 'continueErrorOutput';
}

/**
 * An operation that moves money or sends a message failed for an item while Continue On Fail is off:
 * the node stopped starting new items and says which items the API already accepted (with their
 * receipt, so nobody pays twice on a re-run), which failed, and which were never sent.
 */
function partialFailure(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	run: {
		ready: Array<{ itemIndex: number }>;
		started: number;
		failed: Array<{ itemIndex: number; error: NodeApiError | NodeOperationError }>;
		results: INodeExecutionData[][];
	},
): NodeOperationError {
	const ordinal = (itemIndex: number) => `item ${itemIndex + 1}`;
	const accepted = run.ready
		.filter(({ itemIndex }) => run.results[itemIndex] !== undefined)
		.map(({ itemIndex }) => {
			const json = run.results[itemIndex][0]?.json ?? {};
			const value = op.receipt?.of(json);
			return op.receipt ? `${ordinal(itemIndex)} (${op.receipt.name} ${value === undefined ? 'not in the answer' : String(value)})` : ordinal(itemIndex);
		});
	const notSent = run.ready.slice(run.started).map(({ itemIndex }) => ordinal(itemIndex));
	const first = run.failed.sort((a, b) => a.itemIndex - b.itemIndex)[0];
	const failedLines = run.failed.map(({ itemIndex, error }) => `${ordinal(itemIndex)}: ${error.message}`);
	const description = [
		`Accepted by the API, do not send again: ${accepted.length ? accepted.join(', ') : 'none'}.`,
		`Failed: ${failedLines.join('; ')}.`,
		`Not sent: ${notSent.length ? notSent.join(', ') : 'none'}.`,
		first.error.description ?? '',
		'Turn on "On Error: Continue (using error output)" to get the accepted items as output and the failed ones on the error output.',
	]
		.filter(Boolean)
		.join('\n');
	return new NodeOperationError(
		ctx.getNode(),
		`${op.name} failed for ${failedLines.length === 1 ? ordinal(first.itemIndex) : `${failedLines.length} items`}; ${accepted.length} item${accepted.length === 1 ? ' was' : 's were'} already accepted by the API and ${notSent.length} not sent`,
		{ itemIndex: first.itemIndex, description },
	);
}

async function runItem(
	ctx: IExecuteFunctions,
	client: ApiClient,
	op: OperationDefinition,
	itemIndex: number,
	values: FieldValues,
): Promise<INodeExecutionData[]> {
	const item: ItemContext = {
		ctx,
		itemIndex,
		values,
		send: async (request, expects) =>
			await client.send(request, {
				itemIndex,
				operation: op.name,
				repeatable: op.repeatable,
				acceptsAnswer: op.acceptsAnswer,
				expects: expects ?? op.expects,
				secrets: (op.secretFields ?? []).map((name) => values[name]).filter((value) => value !== undefined),
			}),
	};
	const request = buildRequest(op, values);
	if (op.run) return await op.run(item, request);
	const response = await item.send(request);
	return op.toItems ? await op.toItems(response, item) : [{ json: responseJson(response.body) }];
}

/** Reads and validates one item's fields; throws FieldError naming the field and the rule. */
export function readValues(ctx: IExecuteFunctions, op: OperationDefinition, itemIndex: number): FieldValues {
	const additional = op.fields.some((f) => f.placement === 'additional')
		? (ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject)
		: {};
	const values: FieldValues = {};
	for (const field of op.fields) {
		if (field.showWhen && !shown(ctx, field.showWhen, itemIndex)) continue;
		const raw = field.placement === 'top' ? ctx.getNodeParameter(field.name, itemIndex, undefined) : additional[field.name];
		if (raw === undefined || raw === null || raw === '') {
			if (field.required) throw new FieldError(field.name, `${field.name} is required`);
			continue;
		}
		values[field.name] = field.toWire(raw);
		if (field.location === 'path') refuseDotSegment(field.name, values[field.name]);
	}
	op.validate?.(values, { ctx, itemIndex });
	return values;
}

/** ".", ".." or a blank id would leave its path segment and send the token to another endpoint. */
function refuseDotSegment(name: string, value: unknown): void {
	const text = String(value ?? '').trim();
	if (text === '' || text === '.' || text === '..') {
		throw new FieldError(name, `${name} must be an id, not empty, "." or "..", got "${text}"`);
	}
}

function shown(ctx: IExecuteFunctions, conditions: IDataObject, itemIndex: number): boolean {
	return Object.entries(conditions).every(([name, allowed]) =>
		(allowed as unknown[]).includes(ctx.getNodeParameter(name, itemIndex, undefined)),
	);
}

/** Path placeholders, body and query from the fields' locations, then the operation's own shaping. */
export function buildRequest(op: OperationDefinition, values: FieldValues): ApiRequest {
	const located = (where: string) =>
		Object.fromEntries(
			op.fields.filter((f) => f.location === where && values[f.name] !== undefined).map((f) => [f.name, values[f.name]]),
		) as IDataObject;
	const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? '')));
	const qs = located('query');
	let body = located('body');
	if (op.shapeBody) body = op.shapeBody(body, values);
	return {
		method: op.method,
		path,
		...(op.method === 'GET' ? {} : { body }),
		...(Object.keys(qs).length ? { qs } : {}),
	};
}

/** The response body as an item's json; an empty answer (documented as "200, no body") says so. */
export function responseJson(body: unknown): IDataObject {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	if (Array.isArray(body)) return { data: body } as IDataObject;
	if (typeof body === 'string' && body.trim() !== '') return { response: body };
	return { success: true };
}

function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	op: OperationDefinition,
): NodeApiError | NodeOperationError {
	if (error instanceof FieldError) {
		// n8n's UI counts items from 1; itemIndex stays 0-based, as n8n expects it.
		const position = itemIndex + 1;
		const named = `${fieldLabel(op, error.field)} (${error.field})`;
		const rest = error.message.slice(error.field.length);
		const message = error.message.startsWith(error.field) && /^[ :]/.test(rest)
			? `${named}${rest}`
			: `${named}: ${error.message}`;
		return new NodeOperationError(ctx.getNode(), `${message} (item ${position})`, {
			itemIndex,
			description: `Nothing was sent for item ${position}. Fix the value of "${fieldLabel(op, error.field)}" (${error.field}) and run again.`,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * The label n8n's editor shows for a field: the displayName of its property in the operation table
 * (top-level, additional field, Options entry, or a member of a collection). Falls back to the name.
 */
export function fieldLabel(op: OperationDefinition, name: string): string {
	const find = (properties: unknown[]): string | undefined => {
		for (const property of properties) {
			if (!property || typeof property !== 'object') continue;
			const { name: own, displayName, options, values } = property as {
				name?: unknown;
				displayName?: unknown;
				options?: unknown;
				values?: unknown;
			};
			if (own === name && typeof displayName === 'string') return displayName;
			for (const nested of [options, values]) {
				const found = Array.isArray(nested) ? find(nested) : undefined;
				if (found) return found;
			}
		}
		return undefined;
	};
	const field = op.fields.find((f) => f.name === name);
	return field?.property.displayName ?? find([...op.fields.map((f) => ({ ...f.property, name: f.name })), ...(op.options ?? [])]) ?? name;
}

/**
 * The item that stands for a failed one with Continue On Fail. With the error output it also carries
 * the error itself, which is how n8n (both 1.x and 2.x) recognises an item for the error output.
 */
function errorItem(ctx: IExecuteFunctions, error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex }, ...(errorOutput(ctx) ? { error } : {}) };
}

/**
 * Runs `worker` over `entries` with at most `limit` at a time; the first error stops new work, the
 * entries under way finish. Resolves with how many entries were started; the caller collects errors.
 */
async function forEachBounded<T>(
	entries: T[],
	limit: number,
	ctx: IExecuteFunctions,
	worker: (entry: T) => Promise<void>,
): Promise<number> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const cancelled = () => ctx.getExecutionCancelSignal?.()?.aborted === true;
	const lane = async () => {
		while (!failure && !cancelled() && next < entries.length) {
			const entry = entries[next++];
			try {
				await worker(entry);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, lane));
	return next;
}

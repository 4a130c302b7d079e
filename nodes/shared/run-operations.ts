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
			const failure = asNodeError(ctx, error, itemIndex);
			if (!continueOnFail) throw failure;
			results[itemIndex] = [errorItem(failure, itemIndex)];
		}
	}

	if (ready.length) {
		const settings = readRequestSettings(ctx);
		const client = await ApiClient.create(ctx, settings);
		await forEachBounded(ready, settings.maxConcurrentRequests, ctx, async ({ itemIndex, values }) => {
			try {
				const produced = await runItem(ctx, client, op, itemIndex, values);
				results[itemIndex] = produced.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
			} catch (error) {
				const failure = asNodeError(ctx, error, itemIndex);
				if (!continueOnFail) throw failure;
				results[itemIndex] = [errorItem(failure, itemIndex)];
			}
		});
	}
	return [toolOutput(ctx, op, results.flat())];
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
		send: async (request) =>
			await client.send(request, { itemIndex, operation: op.name, repeatable: op.repeatable, acceptsAnswer: op.acceptsAnswer }),
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
	}
	op.validate?.(values, { ctx, itemIndex });
	return values;
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

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof FieldError) {
		return new NodeOperationError(ctx.getNode(), `${error.message} (item ${itemIndex})`, {
			itemIndex,
			description: `Nothing was sent for item ${itemIndex}. Fix the value of "${error.field}" and run again.`,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/** Runs `worker` over `entries` with at most `limit` at a time; the first error stops new work. */
async function forEachBounded<T>(
	entries: T[],
	limit: number,
	ctx: IExecuteFunctions,
	worker: (entry: T) => Promise<void>,
): Promise<void> {
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
	if (failure) throw failure.error;
}

import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { byAccount, ItemAccounts } from './accounts';
import { forEachBounded } from './bounded';
import { type Exchange, type ItemAccount, recorded, runAbout, withEvidence } from './evidence';
import { humanReviewRefusal } from './human-review';
import { buildRequest, withContent } from './build-request';
import { itemError } from './item-error';
import { oncePerRun } from './once-per-run';
import { ItemParameters } from './item-parameters';
import { responseJson } from '../responses/json';
import type {
	ApiRequest,
	FieldValues,
	ItemContext,
	OperationDefinition,
	ResourceDefinition,
} from './operation-types';
import { type ItemFailure, partialFailure } from './partial-failure';
import { readSettings, readValues } from './read-values';
import type { ApiCredentials } from '../transport/credential-values';
import type { RequestSettings } from '../transport/request-types';
import { mayHaveBeenCarriedOut } from '../transport/classify';
import { runScope, sendKey } from '../transport/sent-requests';
import { simplified } from './simplify';
import { runsAsTool, toolErrorsGoToModel, toolOutput } from './tool-output';
import { unknownValue } from './unknown-value';
import { ApiClient } from '../transport/transport';
import { ExecutionCancelled } from '../transport/wait';

interface ReadyItem {
	itemIndex: number;
	values: FieldValues;
	request: ApiRequest;
	/** The item's account: the credential as n8n resolved it for this item. */
	credentials: ApiCredentials;
}

/** One execution of a node: its operation, the items' output slots and how an item's failure is handled. */
interface Run {
	ctx: IExecuteFunctions;
	op: OperationDefinition;
	continueOnFail: boolean;
	/** One entry per input item, in input order. */
	results: INodeExecutionData[][];
	/** Per input item, the requests its answer came from, when its evidence is kept (evidence.ts). */
	exchanges: Array<Exchange[] | undefined>;
	/** Per input item, the account it was sent to, as its evidence says it. */
	accounts: Array<ItemAccount | undefined>;
	/** The one place an item's failure becomes the error n8n shows (the operation's hints filled). */
	fail: (
		error: unknown,
		itemIndex: number,
		values?: FieldValues,
	) => NodeApiError | NodeOperationError;
}

/**
 * The action node's execute(): picks the operation of the chosen resource, validates every item and builds its request first
 * (nothing is sent while any item is invalid, unless Continue On Fail turns that item into an error
 * item), then sends the valid items through the shared request path with bounded concurrency, and
 * returns the output in input order with pairedItem.
 */
export async function runOperations(
	ctx: IExecuteFunctions,
	resources: ResourceDefinition[],
): Promise<INodeExecutionData[][]> {
	const op = chosenOperation(ctx, resources);

	const items = ctx.getInputData();
	const continueOnFail = ctx.continueOnFail() || toolErrorsGoToModel(ctx);
	// An action the model chose without a person's approval: refused for every item, nothing sent.
	const refusal = humanReviewRefusal(ctx, op);
	if (refusal) {
		if (!continueOnFail) throw refusal;
		const refused = items.map((_, itemIndex) => errorItem(ctx, refusal, itemIndex));
		return [output(ctx, op, refused)];
	}

	const run: Run = {
		ctx,
		op,
		continueOnFail,
		results: new Array(items.length),
		exchanges: new Array(items.length),
		accounts: new Array(items.length),
		fail: (error, itemIndex, values) => itemError(ctx.getNode(), op, error, itemIndex, values),
	};
	const parameters = new ItemParameters(ctx);
	let settings: RequestSettings;
	try {
		settings = readSettings(ctx, parameters);
	} catch (error) {
		throw run.fail(error, 0);
	}
	const ready = await validateItems(run, parameters, items.length);
	if (ready.length) await sendItems(run, settings, ready);
	// With the error output, n8n itself moves the items that carry `error` there (handleNodeErrorOutput).
	return [output(ctx, op, run.results.flat(), run)];
}

/** The operation the node's Resource and Operation name. */
function chosenOperation(ctx: IExecuteFunctions, resources: ResourceDefinition[]) {
	const resourceValue = ctx.getNodeParameter('resource', 0, '') as string;
	const operationValue = ctx.getNodeParameter('operation', 0, '') as string;
	const resource = resources.find((r) => r.value === resourceValue);
	const known = (list: Array<{ value: string }>) => list.map((entry) => entry.value);
	if (!resource) {
		throw unknownValue(ctx.getNode(), `resource "${resourceValue}"`, known(resources));
	}
	const op = resource.operations.find((o) => o.value === operationValue);
	if (!op) {
		const what = `operation "${operationValue}" of resource "${resourceValue}"`;
		throw unknownValue(ctx.getNode(), what, known(resource.operations));
	}
	return op;
}

/**
 * What the node outputs: as an AI tool, what the model reads; otherwise the items, simplified where
 * Simplify is on. Evidence hashes the answer as output, so it is added after Simplify.
 */
function output(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	items: INodeExecutionData[],
	run?: Run,
): INodeExecutionData[] {
	const evidenced = (list: INodeExecutionData[]) =>
		run ? withEvidence(list, run.exchanges, run.accounts, runAbout(ctx)) : list;
	return runsAsTool(ctx)
		? toolOutput(ctx, op, evidenced(items))
		: evidenced(simplified(ctx, op, items));
}

/**
 * Every item's values, request and account; an invalid item stops the run, or becomes its error
 * item. Nothing is sent before every item was checked. The accounts are read after every item's
 * parameters, so that n8n reads the credential while they are checked.
 */
async function validateItems(
	run: Run,
	parameters: ItemParameters,
	count: number,
): Promise<ReadyItem[]> {
	const accounts = new ItemAccounts(run.ctx);
	const checkOncePerRun = oncePerRun(run.op);
	const checked: Array<Omit<ReadyItem, 'credentials'>> = [];
	const refuse = (error: unknown, itemIndex: number) => {
		if (!run.continueOnFail) throw run.fail(error, itemIndex);
		run.results[itemIndex] = [errorItem(run.ctx, run.fail(error, itemIndex), itemIndex)];
	};
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const values = readValues(run.ctx, parameters, run.op, itemIndex);
			checkOncePerRun(values, itemIndex);
			checked.push({ itemIndex, values, request: buildRequest(run.op, values) });
		} catch (error) {
			refuse(error, itemIndex);
		}
	}
	const ready: ReadyItem[] = [];
	for (const item of checked) {
		try {
			ready.push({ ...item, credentials: await accounts.get(item.itemIndex) });
		} catch (error) {
			refuse(error, item.itemIndex);
		}
	}
	return ready;
}

/** One account's items of a run, and the client that sends them. */
interface Lane {
	entries: ReadyItem[];
	client: ApiClient;
}

/** What became of the items a run sent: which started, which failed, which never left. */
interface Sending {
	started: Set<number>;
	failed: ItemFailure[];
	cancelledBeforeSending: number[];
}

/**
 * Sends the valid items, each account's in input order and bounded by that account's window, the
 * accounts side by side; reports what failed. A failure without Continue On Fail starts no new item
 * of any account.
 */
async function sendItems(run: Run, settings: RequestSettings, ready: ReadyItem[]): Promise<void> {
	// n8n aborts this signal when the execution is stopped: every wait and request of the run ends,
	// but a money or message request already on the wire, which is let finish (transport.ts).
	const cancel = run.ctx.getExecutionCancelSignal?.();
	// Where the requests that must not go out again are remembered when n8n may re-run the node.
	const scope = run.op.repeatable ? undefined : runScope(run.ctx);
	const sending: Sending = { started: new Set(), failed: [], cancelledBeforeSending: [] };
	const cancelled = () => cancel?.aborted === true;
	const stop = () => cancelled() || (!run.continueOnFail && sending.failed.length > 0);
	const lanes = byAccount(ready).map((entries): Lane => {
		const client = new ApiClient(run.ctx, entries[0].credentials, settings, cancel);
		const account = { environment: client.environment, account: client.account };
		for (const entry of entries) run.accounts[entry.itemIndex] = account;
		return { entries, client };
	});
	await Promise.all(
		lanes.map(async ({ entries, client }) => {
			const send = async (entry: ReadyItem) => await sendEntry(run, client, scope, entry, sending);
			const count = await forEachBounded(entries, () => client.concurrency, send, stop);
			for (const entry of entries.slice(0, count)) sending.started.add(entry.itemIndex);
		}),
	);
	reportStop(run, ready, sending, cancelled());
}

/** Sends one item and puts its output, or its failure, in its place. */
async function sendEntry(
	run: Run,
	client: ApiClient,
	scope: string | undefined,
	entry: ReadyItem,
	sending: Sending,
): Promise<void> {
	const { ctx, op } = run;
	try {
		const exchanges = entry.values.includeEvidence === false ? undefined : [];
		run.exchanges[entry.itemIndex] = exchanges;
		const produced = await runItem(ctx, client, op, entry, scope, exchanges);
		run.results[entry.itemIndex] = produced.map((item) => ({
			...item,
			pairedItem: { item: entry.itemIndex },
		}));
	} catch (error) {
		// Stopped before its request left: never sent (the stop itself starts no new item).
		if (error instanceof ExecutionCancelled && !op.repeatable) {
			sending.cancelledBeforeSending.push(entry.itemIndex);
			return;
		}
		const failure = run.fail(error, entry.itemIndex, entry.values);
		sending.failed.push({ itemIndex: entry.itemIndex, error: failure });
		if (!run.continueOnFail) throw failure;
		run.results[entry.itemIndex] = [errorItem(ctx, failure, entry.itemIndex)];
	}
}

/**
 * The error of a run that stopped: a failure without Continue On Fail, or a stopped execution. For
 * money and messages it says which items the API accepted and which were never sent.
 */
function reportStop(run: Run, ready: ReadyItem[], sending: Sending, cancelled: boolean): void {
	const { ctx, op } = run;
	const { started, failed, cancelledBeforeSending } = sending;
	const left = (itemIndex: number) =>
		started.has(itemIndex) && !cancelledBeforeSending.includes(itemIndex);
	const indexes = ready.map((r) => r.itemIndex);
	const sent = indexes.filter(left);
	const notSent = indexes.filter((itemIndex) => !left(itemIndex));
	const outcome = { sent, notSent, failed, results: run.results };
	// A stopped execution reports what the API did with the money and messages sent so far. n8n
	// saves a stopped execution when it is stopped, before the requests on the wire have answered,
	// so the report (redacted, receipts included) also goes to n8n's log.
	if (cancelled && !op.repeatable && notSent.length) {
		const report = partialFailure(ctx, op, { ...outcome, cancelled: true });
		ctx.logger?.warn(`${report.message}\n${report.description ?? ''}`, {
			node: ctx.getNode().name,
			executionId: ctx.getExecutionId?.(),
		});
		throw report;
	}
	if (failed.length && !run.continueOnFail) {
		if (op.repeatable || ready.length === 1) throw failed[0].error;
		throw partialFailure(ctx, op, outcome);
	}
}

async function runItem(
	ctx: IExecuteFunctions,
	client: ApiClient,
	op: OperationDefinition,
	entry: ReadyItem,
	scope: string | undefined,
	exchanges: Exchange[] | undefined,
): Promise<INodeExecutionData[]> {
	const { itemIndex, values, request } = entry;
	let sequence = 0;
	const secrets = op.fields
		.filter((f) => f.rule && f.secret)
		.map((f) => values[f.property.name])
		.filter((value) => value !== undefined);
	const sendOne = async (full: ApiRequest) =>
		await client.send(full, {
			repeatable: op.repeatable,
			acceptsAnswer: op.acceptsAnswer,
			expects: op.expects,
			secrets,
			...(scope !== undefined ? { sendKey: sendKey(scope, itemIndex, sequence++) } : {}),
		});
	const item: ItemContext = {
		ctx,
		itemIndex,
		values,
		credentials: entry.credentials,
		send: async (toSend) => {
			const full = await withContent(toSend);
			if (!exchanges) return await sendOne(full);
			const secretFree = client.secretCutter(secrets);
			return await recorded(full, secretFree, async () => await sendOne(full), exchanges);
		},
		download: async (url) => await client.download(url),
	};
	if (op.run) return await op.run(item, request);
	const response = await item.send(request);
	return op.toItems ? await op.toItems(response, item) : [{ json: responseJson(response.body) }];
}

/**
 * The item that stands for a failed one with Continue On Fail. With the error output it also carries
 * the error itself, which is how n8n (both 1.x and 2.x) recognises an item for the error output.
 */
function errorItem(
	ctx: IExecuteFunctions,
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	// The answer of a request that may have been carried out (a receipt the node could not use).
	const answer = mayHaveBeenCarriedOut(error)?.answer;
	if (answer !== undefined) json.answer = answer as IDataObject[string];
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	return { json, pairedItem: { item: itemIndex }, ...(toErrorOutput ? { error } : {}) };
}

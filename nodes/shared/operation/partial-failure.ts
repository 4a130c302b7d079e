import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
	NodeApiError,
	type NodeOperationError,
} from 'n8n-workflow';

import { valueAt } from '../responses/envelope';
import { quoteAnswer } from '../transport/errors';
import type { OperationDefinition } from './operation-types';
import { mayHaveBeenCarriedOut } from '../transport/classify';

export interface ItemFailure {
	itemIndex: number;
	error: NodeApiError | NodeOperationError;
}

/** How far the run of an operation that moves money or sends a message came before it stopped. */
export interface PartialRun {
	sent: number[];
	notSent: number[];
	failed: ItemFailure[];
	results: INodeExecutionData[][];
	cancelled?: boolean;
}

const ordinal = (itemIndex: number) => `item ${itemIndex + 1}`;

/**
 * An operation that moves money or sends a message failed for an item while Continue On Fail is off,
 * or the execution was stopped while it ran: the node started no new items and says which items the
 * API already accepted (with their receipt, so nobody pays twice on a re-run), which failed (with
 * their HTTP status), which of those may have been carried out (with the receipt and the answer the
 * node could not use), and which were never sent.
 */
export function partialFailure(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	run: PartialRun,
): NodeApiError {
	const accepted = acceptedItems(op, run);
	const notSent = run.notSent.map(ordinal);
	const failed = [...run.failed].sort((a, b) => a.itemIndex - b.itemIndex);
	const first = failed[0] as ItemFailure | undefined;
	const acceptedAndNotSent = `${accepted.length} item${accepted.length === 1 ? ' was' : 's were'} already accepted by the API and ${notSent.length} not sent`;
	const message =
		run.cancelled || !first
			? `The execution was cancelled during ${op.name}; ${acceptedAndNotSent}`
			: `${op.name} failed for ${failed.length === 1 ? ordinal(first.itemIndex) : `${failed.length} items`}; ${acceptedAndNotSent}`;
	// A NodeApiError, so that the failing item's HTTP status stays on the error n8n shows.
	const httpCode =
		first?.error instanceof NodeApiError ? (first.error.httpCode ?? undefined) : undefined;
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: describeRun({ accepted, notSent, failed, cancelled: run.cancelled }),
		itemIndex: first?.itemIndex ?? run.notSent[0] ?? 0,
		httpCode,
	});
}

/** The items the API accepted, each with its receipt when the operation names one. */
function acceptedItems(op: OperationDefinition, run: PartialRun): string[] {
	const failedItems = new Set(run.failed.map((f) => f.itemIndex));
	return run.sent
		.filter((itemIndex) => run.results[itemIndex] !== undefined && !failedItems.has(itemIndex))
		.map((itemIndex) => {
			if (op.receipt === undefined) return ordinal(itemIndex);
			const value = valueAt(run.results[itemIndex][0]?.json, op.receipt);
			return `${ordinal(itemIndex)} (${op.receipt} ${value === undefined ? 'not in the answer' : String(value)})`;
		});
}

/** The failed items that may have been carried out, with their receipt and answer when one came. */
function mayHaveBeenCarriedOutItems(failed: ItemFailure[]): string[] {
	return failed.flatMap(({ itemIndex, error }) => {
		const mark = mayHaveBeenCarriedOut(error);
		if (!mark) return [];
		return [
			mark.answer !== undefined
				? `${ordinal(itemIndex)} (${quoteAnswer(mark.answer, mark.receipt)})`
				: ordinal(itemIndex),
		];
	});
}

/** The error's description: one line per kind of item, then what to do. */
function describeRun(run: {
	accepted: string[];
	notSent: string[];
	failed: ItemFailure[];
	cancelled?: boolean;
}): string {
	const { accepted, notSent, failed } = run;
	const unknown = mayHaveBeenCarriedOutItems(failed);
	const failedLines = failed.map(
		({ itemIndex, error }) => `${ordinal(itemIndex)}: ${error.message}`,
	);
	return [
		`Accepted by the API, do not send again: ${accepted.length ? accepted.join(', ') : 'none'}.`,
		unknown.length
			? `May have been carried out, check with the provider before sending again: ${unknown.join(', ')}.`
			: '',
		failedLines.length ? `Failed: ${failedLines.join('; ')}.` : '',
		`Not sent: ${notSent.length ? notSent.join(', ') : 'none'}.`,
		failed[0]?.error.description ?? '',
		run.cancelled
			? ''
			: 'Turn on "On Error: Continue (using error output)" to get the accepted items as output and the failed ones on the error output.',
	]
		.filter(Boolean)
		.join('\n');
}

import { type IExecuteFunctions, type INodeExecutionData, type JsonObject, NodeApiError, type NodeOperationError } from 'n8n-workflow';

import { valueAt } from './envelope';
import type { OperationDefinition } from './operation-types';

export interface ItemFailure {
	itemIndex: number;
	error: NodeApiError | NodeOperationError;
}

/**
 * An operation that moves money or sends a message failed for an item while Continue On Fail is off:
 * the node stopped starting new items and says which items the API already accepted (with their
 * receipt, so nobody pays twice on a re-run), which failed (with their HTTP status), and which were
 * never sent.
 */
export function partialFailure(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
	run: { sent: number[]; notSent: number[]; failed: ItemFailure[]; results: INodeExecutionData[][] },
): NodeApiError {
	const ordinal = (itemIndex: number) => `item ${itemIndex + 1}`;
	const accepted = run.sent
		.filter((itemIndex) => run.results[itemIndex] !== undefined)
		.map((itemIndex) => {
			if (op.receipt === undefined) return ordinal(itemIndex);
			const value = valueAt(run.results[itemIndex][0]?.json, op.receipt);
			return `${ordinal(itemIndex)} (${op.receipt} ${value === undefined ? 'not in the answer' : String(value)})`;
		});
	const notSent = run.notSent.map(ordinal);
	const failed = [...run.failed].sort((a, b) => a.itemIndex - b.itemIndex);
	const first = failed[0];
	const failedLines = failed.map(({ itemIndex, error }) => `${ordinal(itemIndex)}: ${error.message}`);
	const description = [
		`Accepted by the API, do not send again: ${accepted.length ? accepted.join(', ') : 'none'}.`,
		`Failed: ${failedLines.join('; ')}.`,
		`Not sent: ${notSent.length ? notSent.join(', ') : 'none'}.`,
		first.error.description ?? '',
		'Turn on "On Error: Continue (using error output)" to get the accepted items as output and the failed ones on the error output.',
	]
		.filter(Boolean)
		.join('\n');
	const message = `${op.name} failed for ${failedLines.length === 1 ? ordinal(first.itemIndex) : `${failedLines.length} items`}; ${accepted.length} item${accepted.length === 1 ? ' was' : 's were'} already accepted by the API and ${notSent.length} not sent`;
	// A NodeApiError, so that the failing item's HTTP status stays on the error n8n shows.
	const httpCode = first.error instanceof NodeApiError ? (first.error.httpCode ?? undefined) : undefined;
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description, itemIndex: first.itemIndex, httpCode });
}

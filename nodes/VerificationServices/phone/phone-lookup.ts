import {
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
	NodeApiError,
} from 'n8n-workflow';

import { valueAt } from '../../shared/responses/envelope';
import type {
	ApiResponse,
	ItemContext,
	OperationDefinition,
	ResponseExpectation,
} from '../../shared/operation/operation-types';

/**
 * What the four phone-intelligence lookups share: the transaction status every answer carries
 * (`status.code` 300 completed, 301 partially completed, anything else not completed), read with or
 * without the `data` envelope and in either casing, and the warnings they leave in the output pane.
 */

const COMPLETED = 300;
const PARTIAL = 301;

/** A lookup answer without its transaction status cannot say whether the lookup ran. */
export const lookupAnswer: ResponseExpectation = { oneOf: ['status.code'] };

/** Hints already given in this run of the node, so that 100 items with the same warning show it once. */
const hintsGiven = new WeakMap<IExecuteFunctions, Set<string>>();

/** A warning in n8n's output pane, once per run of the node. */
export function warnOnce(ctx: IExecuteFunctions, message: string): void {
	const given = hintsGiven.get(ctx) ?? new Set<string>();
	hintsGiven.set(ctx, given);
	if (given.has(message) || typeof ctx.addExecutionHints !== 'function') return;
	given.add(message);
	ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/**
 * `lookup`, added beside the response: completed (300) or partial (301), the status and the
 * referenceId. Any other status means the provider did not complete the lookup: the item fails
 * rather than passing on an answer without a result.
 */
export function lookupStatus(
	op: OperationDefinition,
	response: ApiResponse,
	{ ctx, itemIndex }: ItemContext,
): IDataObject {
	const code = Number(valueAt(response.body, 'status.code'));
	const said = valueAt(response.body, 'status.description');
	const description = typeof said === 'string' ? said : null;
	if (code !== COMPLETED && code !== PARTIAL) {
		const status = `status code ${String(valueAt(response.body, 'status.code'))}${description ? `: ${description}` : ''}`;
		throw new NodeApiError(ctx.getNode(), { message: status } as JsonObject, {
			message: `${op.name}: the provider did not complete the lookup (${status})`,
			description:
				'Only status code 300 (completed) and 301 (partially completed) carry a result, so this answer is not used. Check the phone number; if it is right, try again later.',
			itemIndex,
		});
	}
	if (code === PARTIAL) {
		warnOnce(
			ctx,
			`${op.name}: the provider completed some lookups only partly (status code 301): their lookup.status is "partial" and some results may be missing`,
		);
	}
	return {
		status: code === COMPLETED ? 'completed' : 'partial',
		statusCode: code,
		statusDescription: description,
		referenceId: valueAt(response.body, 'referenceId') ?? null,
	};
}

import { type INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FieldError } from '../fields/field-error';
import type { ErrorHints, FieldValues, OperationDefinition } from './operation-types';
import { requestError } from '../transport/errors';
import { RequestFailed } from '../transport/request-failure';
import { validationError } from './validation-error';

/** The operation's hints with `{field}` replaced by the item's values (secret fields stay unnamed). */
export function itemHints(op: OperationDefinition, values: FieldValues): ErrorHints | undefined {
	if (!op.hints) return undefined;
	const secret = new Set(op.fields.filter((f) => f.rule && f.secret).map((f) => f.property.name));
	const fill = (text: string) =>
		text.replace(/\{(\w+)\}/g, (whole, name: string) =>
			values[name] === undefined || secret.has(name) ? whole : String(values[name]),
		);
	return Object.fromEntries(
		Object.entries(op.hints).map(([key, text]) => [key, fill(text as string)]),
	) as ErrorHints;
}

/**
 * Any failure of an item as the error n8n shows for it: a broken rule, a failed request (with the
 * operation's hints filled with the item's `values`), or what an operation threw itself.
 */
export function itemError(
	node: INode,
	op: OperationDefinition,
	error: unknown,
	itemIndex: number,
	values?: FieldValues,
): NodeApiError | NodeOperationError {
	if (error instanceof FieldError) return validationError(node, op, error, itemIndex);
	if (error instanceof RequestFailed) {
		const hints = values ? itemHints(op, values) : undefined;
		return requestError(node, error, { operation: op.name, itemIndex, hints, receipt: op.receipt });
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

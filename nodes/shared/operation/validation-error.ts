import { type INode, NodeOperationError } from 'n8n-workflow';

import type { FieldError } from '../fields/field-error';
import { fieldLabel } from './field-labels';
import type { OperationDefinition } from './operation-types';

/**
 * A value that broke its field's rule: the message names the field's label and name and counts the
 * item from 1 (as n8n's editor does; itemIndex stays 0-based, as n8n expects it).
 */
export function validationError(
	node: INode,
	op: OperationDefinition,
	error: FieldError,
	itemIndex: number,
): NodeOperationError {
	const position = itemIndex + 1;
	const label = fieldLabel(op, error.field);
	const named = `${label} (${error.field})`;
	const rest = error.message.slice(error.field.length);
	const message =
		error.message.startsWith(error.field) && /^[ :]/.test(rest)
			? `${named}${rest}`
			: `${named}: ${error.message}`;
	return new NodeOperationError(node, `${message} (item ${position})`, {
		itemIndex,
		description: `Nothing was sent for item ${position}. Fix the value of "${label}" (${error.field}) and run again.`,
	});
}

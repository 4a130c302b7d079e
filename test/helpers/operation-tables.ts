import { resources } from '../../nodes/VerificationServices/resources';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';

/** Every operation of the action node, named `<resource>.<operation>` (operation values repeat across resources). */
export const OPERATIONS: Array<readonly [string, OperationDefinition]> = resources.flatMap((resource) =>
	resource.operations.map((op) => [`${resource.value}.${op.value}`, op] as const),
);

/** The operation `<resource>.<operation>` names. */
export function operationOf(id: string): OperationDefinition {
	const found = OPERATIONS.find(([name]) => name === id);
	if (!found) throw new Error(`The action node has no operation ${id}`);
	return found[1];
}

import type { INodeTypeDescription } from 'n8n-workflow';

import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';

/**
 * The public contract every action node keeps: type name, display name, AI-tool use, the shared
 * credential, its light and dark icon (icons/<icon>.svg, icons/<icon>.dark.svg) and one option per row of its
 * operation table, in the table's order. The values themselves are public: the golden workflows (one per
 * operation, never edited) hold them.
 */
export function expectNodeContract(
	description: INodeTypeDescription,
	expected: { name: string; displayName: string; icon: string; operations: OperationDefinition[] },
): void {
	expect(description.name).toBe(expected.name);
	expect(description.displayName).toBe(expected.displayName);
	expect(description.usableAsTool).toBe(true);
	expect(description.credentials).toEqual([{ name: 'verificationServicesApi', required: true }]);
	expect(description.icon).toEqual({
		light: `file:../../icons/${expected.icon}.svg`,
		dark: `file:../../icons/${expected.icon}.dark.svg`,
	});
	const operation = description.properties.find((p) => p.name === 'operation')!;
	expect(operation.options!.map((o) => (o as { value: string }).value)).toEqual(expected.operations.map((o) => o.value));
}

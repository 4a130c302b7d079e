import type { OperationDefinition } from './operation-types';
import { requestSettings } from './request-options';

/**
 * The label n8n's editor shows for a parameter of an operation (a field, an additional field or an
 * Options entry), which a validation error names beside the parameter's name. Falls back to the name.
 */
export function fieldLabel(op: OperationDefinition, name: string): string {
	const all = [...op.fields, ...(op.options ?? []), ...requestSettings];
	return all.find((f) => f.property.name === name)?.property.displayName ?? name;
}

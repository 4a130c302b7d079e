import { FieldError, quote } from '../fields/field-error';
import type { FieldValues, OperationDefinition } from './operation-types';

/**
 * The check of an operation's `oncePerRun` field over one run's items, called with each valid item
 * in input order: throws a FieldError for a value an earlier item already gave.
 */
export function oncePerRun(
	op: OperationDefinition,
): (values: FieldValues, itemIndex: number) => void {
	const rule = op.oncePerRun;
	if (!rule) return () => undefined;
	const firstItemOf = new Map<string, number>();
	return (values, itemIndex) => {
		const value = values[rule.field];
		if (value === undefined) return;
		const earlier = firstItemOf.get(String(value));
		if (earlier === undefined) {
			firstItemOf.set(String(value), itemIndex);
			return;
		}
		throw new FieldError(
			rule.field,
			`${rule.field} ${quote(value)} is item ${earlier + 1}'s too: ${rule.why}`,
		);
	};
}

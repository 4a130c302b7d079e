import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { evidenceOption } from './evidence';
import { FieldError } from '../fields/field-error';
import type { ItemParameters } from './item-parameters';
import type { FieldValues, OperationDefinition, ValueField } from './operation-types';
import { requestSettings } from './request-options';
import type { RequestSettings } from '../transport/request-settings';

/**
 * Reads and validates one item's values: the Options first (a field's rule may depend on one, such
 * as Clean Phone Number), then the fields in table order. Each value passes its field's rule, which
 * throws a FieldError naming the field and the rule. Fields hidden by their display conditions are
 * skipped; an empty optional field is left out unless its rule supplies a value. `parameters` is the
 * run's reader, shared by all its items.
 */
export function readValues(
	ctx: IExecuteFunctions,
	parameters: ItemParameters,
	op: OperationDefinition,
	itemIndex: number,
): FieldValues {
	const values: FieldValues = {};
	const options = parameters.get('options', itemIndex, {}) as IDataObject;
	for (const field of [...(op.options ?? []), evidenceOption]) {
		readField(field, options[field.property.name] ?? field.property.default, {
			ctx,
			itemIndex,
			values,
		});
	}
	const additional = op.fields.some((f) => f.rule && f.additional)
		? (parameters.get('additionalFields', itemIndex, {}) as IDataObject)
		: {};
	for (const field of op.fields) {
		if (!field.rule) continue;
		const { name, displayOptions } = field.property;
		if (!field.additional && !isDisplayed(parameters, displayOptions?.show, itemIndex)) continue;
		readField(field, field.additional ? additional[name] : parameters.get(name, itemIndex), {
			ctx,
			itemIndex,
			values,
		});
	}
	return values;
}

/** The request settings of a run (Options > Max Concurrent Requests ...), read through their rules from the first item. */
export function readSettings(ctx: IExecuteFunctions, parameters: ItemParameters): RequestSettings {
	const values: FieldValues = {};
	const options = parameters.get('options', 0, {}) as IDataObject;
	for (const field of requestSettings)
		readField(field, options[field.property.name] ?? field.property.default, {
			ctx,
			itemIndex: 0,
			values,
		});
	return values as unknown as RequestSettings;
}

function readField(
	field: ValueField,
	raw: unknown,
	item: { ctx: IExecuteFunctions; itemIndex: number; values: FieldValues },
): void {
	const { name } = field.property;
	const input = { ...item, name, property: field.property };
	let value: unknown;
	if (raw === undefined || raw === null || raw === '') {
		if (field.rule.whenEmpty) value = field.rule.whenEmpty(input);
		else if (field.property.required && !field.additional)
			throw new FieldError(name, `${name} is required`);
	} else {
		value = field.rule.toWire(raw, input);
	}
	if (value !== undefined) item.values[name] = value;
}

/**
 * Whether a field's display conditions on other parameters hold for this item. As in n8n's editor, a
 * multi-select meets a condition when any of its chosen values is listed.
 */
function isDisplayed(
	parameters: ItemParameters,
	conditions: IDataObject | undefined,
	itemIndex: number,
): boolean {
	return Object.entries(conditions ?? {}).every(([name, allowed]) => {
		const value = parameters.get(name, itemIndex);
		return (Array.isArray(value) ? value : [value]).some((v) => (allowed as unknown[]).includes(v));
	});
}

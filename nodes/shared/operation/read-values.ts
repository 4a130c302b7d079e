import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
	NodeHelpers,
} from 'n8n-workflow';

import { evidenceOption } from './evidence';
import { FieldError } from '../fields/field-error';
import type { ItemParameters } from './item-parameters';
import type { FieldValues, OperationDefinition, ValueField } from './operation-types';
import { requestSettings } from './request-options';
import type { RequestSettings } from '../transport/request-types';

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
		const { name } = field.property;
		if (!field.additional && !isDisplayed(ctx, parameters, field.property, itemIndex)) continue;
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
 * Whether n8n shows the field for this item: its display conditions (`show` and `hide`, on other
 * parameters, `@version` and `@tool`, with `_cnd` operators), judged by n8n's own rules with the
 * values the item resolves the parameters they name to.
 */
function isDisplayed(
	ctx: IExecuteFunctions,
	parameters: ItemParameters,
	property: INodeProperties,
	itemIndex: number,
): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	const named = [...Object.keys(show), ...Object.keys(hide)].filter(
		(name) => !name.startsWith('@'),
	);
	const values: INodeParameters = {};
	for (const name of named) {
		const path = name.replace(/^\//, '');
		values[path] = parameters.get(path, itemIndex) as INodeParameters[string];
	}
	const node = ctx.getNode();
	// n8n reads `@tool` from the node type's name, which ends in "Tool" where the node runs as one.
	const nodeType = { name: node.type } as INodeTypeDescription;
	return NodeHelpers.displayParameter(values, property, node, nodeType);
}

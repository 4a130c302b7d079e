import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from './operation-types';
import { requestSettingsOptions } from './request-settings';
import { toolProperties } from './tool-output';

/**
 * The node's parameters, derived from its operation table: the operation picker, each operation's
 * fields (top level or in Additional Fields) and its Options (request behaviour + its own).
 */
export function operationProperties(operations: OperationDefinition[]): INodeProperties[] {
	// The scanner lints with inline directives off; a plain identifier as the default is what it accepts.
	const firstOperation = operations[0].value;
	const picker: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: operations.map((op) => ({
			name: op.name,
			value: op.value,
			action: op.action,
			description: op.description,
		})),
		default: firstOperation,
	};
	return [picker, ...toolProperties(operations), ...operations.flatMap(propertiesOf)];
}

function propertiesOf(op: OperationDefinition): INodeProperties[] {
	const show = { operation: [op.value] };
	const top: INodeProperties[] = op.fields
		.filter((f) => f.placement === 'top')
		.map((f) => ({
			...f.property,
			name: f.name,
			required: f.required,
			displayOptions: { show: { ...show, ...f.showWhen } },
		}) as INodeProperties);
	const additional = op.fields.filter((f) => f.placement === 'additional');
	const properties = [...top];
	if (additional.length) {
		properties.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
			options: additional
				.map((f) => ({ ...f.property, name: f.name }) as INodeProperties)
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		});
	}
	properties.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [...(op.options ?? []), ...requestSettingsOptions].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	});
	return properties;
}

/** The subtitle under the node on the canvas: the chosen operation's action, e.g. "Check an individual". */
export function operationSubtitle(operations: OperationDefinition[]): string {
	const actions = Object.fromEntries(operations.map((op) => [op.value, op.action]));
	return `={{ ${JSON.stringify(actions)}[$parameter["operation"]] || $parameter["operation"] }}`;
}

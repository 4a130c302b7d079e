import type { INodeProperties } from 'n8n-workflow';

import type { Field, OperationDefinition } from './operation-types';
import { humanReviewProperties } from './human-review';
import { requestSettings } from './request-options';
import { toolProperties } from './tool-output';

/**
 * The node's parameters, derived from its operation table: the operation picker, each operation's
 * fields (top level or in Additional Fields) and its Options (its own entries and the request
 * settings). Each property is the table's literal, shown only for its operation, with its rule's hint
 * closing the description.
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
	return [
		picker,
		...retryNotice(operations),
		...toolProperties(operations),
		...humanReviewProperties(operations),
		...operations.flatMap(propertiesOf),
	];
}

/**
 * What n8n's Retry On Fail does with money and messages (resend-rule.ts, sent-requests.ts), shown on
 * the operations that are not repeatable. n8n's display conditions see parameters only, not the
 * node's settings, so the notice cannot appear only when Retry On Fail is on.
 */
function retryNotice(operations: OperationDefinition[]): INodeProperties[] {
	const once = operations.filter((op) => !op.repeatable).map((op) => op.value);
	if (!once.length) return [];
	return [
		{
			displayName:
				'This operation moves money, sends a message or starts something billed: it is never sent twice for an item. With Retry On Fail (node Settings) on, a new try sends only the items never sent; items the API accepted come back with the answer they got, and items that may have been carried out (a 5xx, a timeout, a cut connection) fail again without a second request.',
			name: 'retryOnFailNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { operation: once } },
		},
	];
}

/** The property as the editor shows it: its description ends with the rule's hint. */
export function shownProperty(field: Field): INodeProperties {
	const { property, rule } = field;
	const hint = typeof rule?.hint === 'function' ? rule.hint(property) : rule?.hint;
	if (!hint) return property;
	const said = property.description ? `${property.description.replace(/\.?$/, '.')} ` : '';
	return { ...property, description: `${said}Must be ${hint}.` };
}

const byLabel = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

function propertiesOf(op: OperationDefinition): INodeProperties[] {
	const show = { operation: [op.value] };
	const top = op.fields
		.filter((f) => !(f.rule && f.additional))
		.map((f) => {
			const property = shownProperty(f);
			return {
				...property,
				displayOptions: {
					...property.displayOptions,
					show: { ...show, ...property.displayOptions?.show },
				},
			};
		});
	const additional = op.fields.filter((f) => f.rule && f.additional).map(shownProperty);
	const properties: INodeProperties[] = [...top];
	if (additional.length) {
		properties.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
			options: additional.sort(byLabel),
		});
	}
	properties.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [...(op.options ?? []), ...requestSettings].map(shownProperty).sort(byLabel),
	});
	return properties;
}

/** The subtitle under the node on the canvas: the chosen operation's action, e.g. "Check an individual". */
export function operationSubtitle(operations: OperationDefinition[]): string {
	const actions = Object.fromEntries(operations.map((op) => [op.value, op.action]));
	return `={{ ${JSON.stringify(actions)}[$parameter["operation"]] || $parameter["operation"] }}`;
}

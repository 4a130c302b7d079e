import type { INodeProperties } from 'n8n-workflow';

import type { Field, OperationDefinition, ResourceDefinition } from './operation-types';
import { evidenceOption } from './evidence';
import { humanReviewProperties } from './human-review';
import { requestSettings } from './request-options';
import { simplifyProperties } from './simplify';
import { toolDescriptionProperties, toolOutputProperties } from './tool-output';

/**
 * The action node's parameters, derived from its resource tables: the resource picker, then for each
 * resource its operation picker, its own properties and each operation's fields (top level or in
 * Additional Fields) and Options (its own entries and the request settings). Each property is the
 * table's literal, shown only for its resource and operation, with its rule's hint closing the
 * description.
 */
export function nodeProperties(resources: ResourceDefinition[]): INodeProperties[] {
	// The scanner lints with inline directives off; a plain identifier as the default is what it accepts.
	const firstResource = resources[0].value;
	const picker: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((r) => ({ name: r.name, value: r.value, description: r.description })),
		default: firstResource,
	};
	return [
		picker,
		...resources.flatMap((r) =>
			resourceProperties(r).map((p) => shownOnlyWhen(p, 'resource', r.value)),
		),
		...toolOutputProperties,
	];
}

/** One resource's parameters, before they are limited to the resource. */
function resourceProperties(resource: ResourceDefinition): INodeProperties[] {
	const { operations } = resource;
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
		...(resource.properties ?? []),
		...retryNotice(operations),
		...toolDescriptionProperties(operations),
		...humanReviewProperties(operations),
		...simplifyProperties(operations),
		...operations.flatMap(propertiesOf),
	];
}

/**
 * The property shown only when `parameter` has this value, besides its own conditions: an operation,
 * a resource (operation values repeat across resources), a trigger's source.
 */
export function shownOnlyWhen(
	property: INodeProperties,
	parameter: string,
	value: string,
): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { [parameter]: [value], ...displayOptions.show } },
	};
}

/**
 * What n8n's Retry On Fail does with money and messages (transport/classify.ts, sent-requests.ts), shown on
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
		.map((f) => shownOnlyWhen(shownProperty(f), 'operation', op.value));
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
		options: [...(op.options ?? []), evidenceOption, ...requestSettings]
			.map(shownProperty)
			.sort(byLabel),
	});
	return properties;
}

/** The subtitle under the node on the canvas: the chosen operation's action, e.g. "Check an individual". */
export function operationSubtitle(resources: ResourceDefinition[]): string {
	const actions = Object.fromEntries(
		resources.flatMap((r) => r.operations.map((op) => [`${r.value}:${op.value}`, op.action])),
	);
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

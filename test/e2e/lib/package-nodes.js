'use strict';
// What the built package declares (dist/, npm run build first).

const path = require('node:path');

const { packageNodes } = require('../../../scripts/lib/package-nodes');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The description of every node package.json lists, built. */
const nodeDescriptions = () => packageNodes(REPO_ROOT).nodes.map((n) => n.description);

/**
 * Every operation of the built action node, as "node.resource.operation", and every source of the
 * trigger, as "node.source".
 */
function declaredOperations() {
	const declared = [];
	for (const description of nodeDescriptions()) {
		for (const picker of description.properties.filter((p) => p.name === 'operation')) {
			const [resource] = picker.displayOptions.show.resource;
			for (const option of picker.options) declared.push(`${description.name}.${resource}.${option.value}`);
		}
		const sources = description.properties.find((p) => p.name === 'source');
		for (const option of sources?.options ?? []) declared.push(`${description.name}.${option.value}`);
	}
	return declared.sort();
}

/** Whether a property's show conditions (the operation's and the node version's aside) hold for these values. */
function shown(property, values) {
	return Object.entries(property.displayOptions?.show ?? {}).every(([key, allowed]) => {
		if (key === 'resource' || key === 'operation') return true;
		if (key.startsWith('@')) return false; // '@tool': only the Tool variant shows it
		return allowed.includes(values[key]);
	});
}

/**
 * An operation's required parameters at their example values: the default, or the placeholder where the
 * default is empty or an expression (a new golden workflow's, and every-answer.ts's for an operation it
 * names no values for).
 */
function exampleParameters(description, resource, operation) {
	const values = { resource, operation };
	const properties = description.properties.filter((p) => p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));
	for (const p of properties) {
		if (!p.required || !shown(p, values)) continue;
		const empty = p.default === '' || p.default === undefined || (typeof p.default === 'string' && p.default.startsWith('='));
		values[p.name] = empty && p.placeholder !== undefined ? p.placeholder : p.default;
	}
	return values;
}

/**
 * The description n8n gives a model (AI Agent, MCP client) for the operation `operation` of resource
 * `resource` ('aml', 'checkIndividual'), as the node's Tool Description field defaults to it.
 */
function toolDescription(resource, operation) {
	const dist = path.join(REPO_ROOT, 'dist', 'nodes');
	const { toolDescriptionOf } = require(path.join(dist, 'shared', 'operation', 'tool-output.js'));
	const { [`${resource}Resource`]: definition } = require(path.join(dist, 'VerificationServices', resource, 'operations', 'index.js'));
	const op = definition.operations.find((o) => o.value === operation);
	if (!op) throw new Error(`no operation ${resource}/${operation} in dist/`);
	return toolDescriptionOf(op);
}

module.exports = { nodeDescriptions, declaredOperations, exampleParameters, toolDescription };

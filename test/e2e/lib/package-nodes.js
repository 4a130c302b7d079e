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

module.exports = { nodeDescriptions, declaredOperations };

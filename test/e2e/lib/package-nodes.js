'use strict';
// What the built package declares (dist/, npm run build first).

const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The description of every node package.json lists, built. */
function nodeDescriptions() {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	return pkg.n8n.nodes.map((file) => {
		const NodeClass = Object.values(require(path.join(REPO_ROOT, file))).find((v) => typeof v === 'function');
		return new NodeClass().description;
	});
}

/** Every operation the built action nodes declare, as "node.operation". */
function declaredOperations() {
	const declared = [];
	for (const description of nodeDescriptions()) {
		const picker = description.properties.find((p) => p.name === 'operation');
		if (!picker) continue; // a trigger
		for (const option of picker.options) declared.push(`${description.name}.${option.value}`);
	}
	return declared.sort();
}

module.exports = { nodeDescriptions, declaredOperations };

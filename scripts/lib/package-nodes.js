'use strict';
// The package's nodes and credentials as n8n loads them (package.json's n8n section), for the docs
// generators: each node's description and, for the action node, its resource tables.

const fs = require('fs');
const path = require('path');

/** The first class a module exports, instantiated. */
const instanceOf = (file) => new (Object.values(require(file))[0])();

/**
 * Every node and credential the package lists. `fileOf` maps a package.json entry (`dist/...js`) to
 * the file to load: the built file for npm run docs, the TypeScript source under jest.
 */
function packageNodes(root, fileOf = (entry) => path.join(root, entry)) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const nodes = pkg.n8n.nodes.map((entry) => {
		const file = fileOf(entry);
		const { description } = instanceOf(file);
		// The action node's resources (resources.ts beside the node): the operation tables the docs come from.
		const resources = description.properties.some((p) => p.name === 'resource')
			? require(path.join(path.dirname(file), 'resources')).resources
			: undefined;
		return { description, resources };
	});
	const credentials = pkg.n8n.credentials.map((entry) => instanceOf(fileOf(entry)));
	return { packageName: pkg.name, nodes, credentials };
}

module.exports = { packageNodes };

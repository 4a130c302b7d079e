'use strict';
// npm run docs: rewrites README's operation reference from the built nodes (run npm run build first).
const fs = require('fs');
const path = require('path');
const { renderOperations, operationTableOf, replaceSection } = require('./render-operations');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const files = pkg.n8n.nodes.map((file) => path.join(root, file));
const nodes = files.map((file) => new (Object.values(require(file))[0])());
const tables = {};
nodes.forEach((node, i) => {
	if (node.description.properties.some((p) => p.name === 'operation')) tables[node.description.name] = operationTableOf(files[i]);
});
const readmePath = path.join(root, 'README.md');
fs.writeFileSync(readmePath, replaceSection(fs.readFileSync(readmePath, 'utf8'), renderOperations(nodes, tables)));
console.log('README.md operation reference updated');

'use strict';
// npm run docs: rewrites README's operation reference and its table of reads and actions from the built nodes (run npm run build first).
const fs = require('fs');
const path = require('path');
const { renderOperations, operationTableOf, replaceSection } = require('./render-operations');
const tools = require('./render-tools');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const files = pkg.n8n.nodes.map((file) => path.join(root, file));
const nodes = files.map((file) => new (Object.values(require(file))[0])());
const tables = {};
nodes.forEach((node, i) => {
	if (node.description.properties.some((p) => p.name === 'operation')) tables[node.description.name] = operationTableOf(files[i]);
});
const readmePath = path.join(root, 'README.md');
const withOperations = replaceSection(fs.readFileSync(readmePath, 'utf8'), renderOperations(nodes, tables));
const toolTables = tools.renderTools(nodes, tables);
fs.writeFileSync(readmePath, replaceSection(withOperations, toolTables, tools.START, tools.END));
console.log('README.md operation reference and table of reads and actions updated');

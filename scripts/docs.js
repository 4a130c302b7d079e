'use strict';
// npm run docs: rewrites README's operation reference and its table of reads and actions from the built nodes (run npm run build first).
const fs = require('fs');
const path = require('path');
const { renderOperations, replaceSection } = require('./render-operations');
const tools = require('./render-tools');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const nodes = pkg.n8n.nodes.map((file) => {
	const exported = require(path.join(root, file));
	return new (Object.values(exported)[0])();
});
const readmePath = path.join(root, 'README.md');
const withOperations = replaceSection(fs.readFileSync(readmePath, 'utf8'), renderOperations(nodes));
const toolTables = tools.renderTools(tools.toolNodes(root, require));
fs.writeFileSync(readmePath, replaceSection(withOperations, toolTables, tools.START, tools.END));
console.log('README.md operation reference and table of reads and actions updated');

'use strict';
// npm run docs: rewrites README's operation reference from the built nodes (run npm run build first).
const fs = require('fs');
const path = require('path');
const { renderOperations, replaceSection } = require('./render-operations');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const nodes = pkg.n8n.nodes.map((file) => {
	const exported = require(path.join(root, file));
	return new (Object.values(exported)[0])();
});
const readmePath = path.join(root, 'README.md');
fs.writeFileSync(readmePath, replaceSection(fs.readFileSync(readmePath, 'utf8'), renderOperations(nodes)));
console.log('README.md operation reference updated');

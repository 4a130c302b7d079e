'use strict';
// npm run docs: rewrites README's operation reference and its table of reads and actions, and
// docs/public-names.md's names, from the built nodes (npm run build first).
const fs = require('fs');
const path = require('path');
const { packageNodes } = require('./lib/package-nodes');
const operations = require('./render-operations');
const tools = require('./render-tools');
const names = require('./render-names');

const root = path.resolve(__dirname, '..');
const pkg = packageNodes(root);

const readmePath = path.join(root, 'README.md');
let readme = fs.readFileSync(readmePath, 'utf8');
readme = operations.replaceSection(readme, operations.renderOperations(pkg.nodes));
readme = operations.replaceSection(readme, tools.renderTools(pkg.nodes), tools.START, tools.END);
fs.writeFileSync(readmePath, readme);

const namesPath = path.join(root, 'docs', 'public-names.md');
const contract = fs.readFileSync(namesPath, 'utf8');
fs.writeFileSync(namesPath, operations.replaceSection(contract, names.renderNames(pkg), names.START, names.END));
console.log('README.md (operation reference, reads and actions) and docs/public-names.md updated');

'use strict';
// npm run docs: rewrites the parts of the docs that come from the code, from the built nodes (npm run
// build first): the operation reference (docs/operations.md), README's table of resources and its limits,
// the table of reads and actions (docs/ai-agents.md), docs/scale.md's table of how a quota is learnt and
// docs/public-names.md's names.
const fs = require('fs');
const path = require('path');
const { packageNodes } = require('./lib/package-nodes');
const operations = require('./render-operations');
const tools = require('./render-tools');
const names = require('./render-names');
const limits = require('./render-limits');
const pacing = require('./render-pacing');

const root = path.resolve(__dirname, '..');
const pkg = packageNodes(root);
/** A built module by its path below the repository root, for the renderers that read constants. */
const fromDist = (module) => require(path.join(root, 'dist', module));
const { replaceSection } = operations;

/** Rewrites the generated parts of one file: [[generated, start, end], ...]. */
function rewrite(file, parts) {
	const where = path.join(root, file);
	let text = fs.readFileSync(where, 'utf8');
	for (const [generated, start, end] of parts) text = replaceSection(text, generated, start, end);
	fs.writeFileSync(where, text);
}

rewrite('README.md', [
	[operations.renderOverview(pkg.nodes), operations.OVERVIEW_START, operations.OVERVIEW_END],
	[limits.renderLimits(fromDist), limits.START, limits.END],
]);
rewrite('docs/scale.md', [[pacing.renderPacing(fromDist), pacing.START, pacing.END]]);
rewrite('docs/operations.md', [[operations.renderOperations(pkg.nodes), operations.START, operations.END]]);
rewrite('docs/ai-agents.md', [[tools.renderTools(pkg.nodes), tools.START, tools.END]]);
rewrite('docs/public-names.md', [[names.renderNames(pkg), names.START, names.END]]);
console.log('README.md, docs/scale.md, docs/operations.md, docs/ai-agents.md and docs/public-names.md updated');

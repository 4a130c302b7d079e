/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderOperations, operationTableOf, replaceSection } = require('../../scripts/render-operations') as {
	renderOperations: (nodes: unknown[], tables: Record<string, unknown>) => string;
	operationTableOf: (nodeFile: string) => unknown;
	replaceSection: (readme: string, generated: string, start?: string, end?: string) => string;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require('../../scripts/render-tools') as {
	renderTools: (nodes: unknown[], tables: Record<string, unknown>) => string;
	START: string;
	END: string;
};

const root = join(__dirname, '..', '..');

// The nodes npm run docs renders, from the sources the build compiles, with their operation tables.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
const sources = pkg.n8n.nodes.map((file) => join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
const nodes = sources.map((source) => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const NodeClass = Object.values(require(source) as Record<string, new () => { description: { name: string; properties: { name: string }[] } }>)[0];
	return new NodeClass();
});
const tables: Record<string, unknown> = {};
nodes.forEach((node, i) => {
	if (node.description.properties.some((p) => p.name === 'operation')) tables[node.description.name] = operationTableOf(sources[i]);
});
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('README, the sections npm run docs renders (run it when this fails)', () => {
	it('the operation reference matches the operation tables', () => {
		expect(readme).toBe(replaceSection(readme, renderOperations(nodes, tables)));
	});

	it('the table of reads and actions matches the operation tables', () => {
		const generated = tools.renderTools(nodes, tables);
		expect(generated).toMatch(/\| Payment Account Check \| Challenge Deposit \(`challengeDeposit`\) \| moves money \| 2 \|/);
		expect(readme).toBe(replaceSection(readme, generated, tools.START, tools.END));
	});
});

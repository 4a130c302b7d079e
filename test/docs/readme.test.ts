/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderOperations, replaceSection } = require('../../scripts/render-operations') as {
	renderOperations: (nodes: unknown[]) => string;
	replaceSection: (readme: string, generated: string) => string;
};

const root = join(__dirname, '..', '..');

describe('README operation reference', () => {
	it('matches the operation tables (run `npm run docs` when this fails)', () => {
		const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
		const nodes = pkg.n8n.nodes.map((file) => {
			const source = join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const NodeClass = Object.values(require(source) as Record<string, new () => unknown>)[0];
			return new NodeClass();
		});
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		expect(readme).toBe(replaceSection(readme, renderOperations(nodes)));
	});
});

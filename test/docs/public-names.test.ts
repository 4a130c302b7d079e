/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packageNodes } = require('../../scripts/lib/package-nodes') as { packageNodes: (root: string, fileOf: (entry: string) => string) => unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { replaceSection } = require('../../scripts/render-operations') as {
	replaceSection: (text: string, generated: string, start?: string, end?: string) => string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = require('../../scripts/render-names') as { renderNames: (pkg: unknown) => string; START: string; END: string };

// docs/public-names.md writes the public contract in the repository: its generated part must match
// the nodes, and every output name it lists must be one the nodes write.
const root = join(__dirname, '..', '..');
const contract = readFileSync(join(root, 'docs', 'public-names.md'), 'utf8');
const pkg = packageNodes(root, (entry) => join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')));

describe('docs/public-names.md (run npm run docs when this fails)', () => {
	it('the names match the nodes, their operation tables and the credentials', () => {
		const generated = names.renderNames(pkg);
		expect(generated).toContain('| `aml` | `checkIndividual`, `registerIndividual`, `removeSearchProfile` |');
		expect(generated).toContain('`runWithoutHumanReview` (tool)');
		expect(contract).toBe(replaceSection(contract, generated, names.START, names.END));
	});

	it('every output name it lists occurs in the nodes’ sources', () => {
		const outputs = contract.slice(contract.indexOf('## Output names'));
		const listed = [...new Set([...outputs.matchAll(/`([^`]+)`/g)].map((m) => m[1].split('.').pop()!))];
		const files = readdirSync(join(root, 'nodes'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
		const sources = files.map((file) => readFileSync(join(root, 'nodes', file), 'utf8')).join('\n');
		expect(listed.length).toBeGreaterThan(40);
		expect(listed.filter((name) => !new RegExp(`\\b${name}\\b`).test(sources))).toEqual([]);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packageNodes } = require('../../scripts/lib/package-nodes') as { packageNodes: (root: string, fileOf: (entry: string) => string) => { nodes: unknown } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const operations = require('../../scripts/render-operations') as {
	renderOperations: (nodes: unknown) => string;
	renderOverview: (nodes: unknown) => string;
	replaceSection: (text: string, generated: string, start?: string, end?: string) => string;
	OVERVIEW_START: string;
	OVERVIEW_END: string;
};
const { replaceSection } = operations;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const limits = require('../../scripts/render-limits') as { renderLimits: (load: (module: string) => unknown) => string; START: string; END: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pacing = require('../../scripts/render-pacing') as { renderPacing: (load: (module: string) => unknown) => string; START: string; END: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require('../../scripts/render-tools') as { renderTools: (nodes: unknown) => string; START: string; END: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = require('../../scripts/render-names') as { renderNames: (pkg: unknown) => string; START: string; END: string };

const root = join(__dirname, '..', '..');

// The nodes npm run docs renders, from the sources the build compiles.
const pkg = packageNodes(root, (entry) => join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
// docs/public-names.md writes the public contract in the repository: its generated part must match
// the nodes, and every output name it lists must be one the nodes write.
const contract = readFileSync(join(root, 'docs', 'public-names.md'), 'utf8');

describe('the parts of the docs npm run docs renders from the code (run it when this fails)', () => {
	const read = (file: string) => readFileSync(join(root, file), 'utf8');
	/** A module by its path below the root, from the sources the build compiles (the constants the renderers read). */
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const fromSources = (module: string) => require(join(root, module)) as unknown;

	it('README: the table of resources and the limits', () => {
		const readme = read('README.md');
		const overview = replaceSection(readme, operations.renderOverview(pkg.nodes), operations.OVERVIEW_START, operations.OVERVIEW_END);
		expect(readme).toBe(replaceSection(overview, limits.renderLimits(fromSources), limits.START, limits.END));
		expect(readme).toContain('| Max Retries, per request (429, 503, network errors) | 5 by default, at most 20 |');
	});

	it('docs/scale.md: how the node learns a quota', () => {
		const scale = read('docs/scale.md');
		const generated = pacing.renderPacing(fromSources);
		expect(generated).toContain('| A 429 during the hold | The pace is lowered by 3 %; the hold is kept |');
		expect(scale).toBe(replaceSection(scale, generated, pacing.START, pacing.END));
	});

	it('docs/operations.md: the operation reference', () => {
		const reference = read('docs/operations.md');
		expect(reference).toBe(replaceSection(reference, operations.renderOperations(pkg.nodes)));
	});

	it('docs/ai-agents.md: the table of reads and actions', () => {
		const agents = read('docs/ai-agents.md');
		const generated = tools.renderTools(pkg.nodes);
		expect(generated).toMatch(/\| Payments \| Challenge Deposit \(`challengeDeposit`\) \| moves money \|/);
		expect(agents).toBe(replaceSection(agents, generated, tools.START, tools.END));
	});
});

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

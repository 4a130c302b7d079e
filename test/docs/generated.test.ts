/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packageNodes } = require('../../scripts/lib/package-nodes') as { packageNodes: (root: string, fileOf: (entry: string) => string) => { nodes: unknown } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderOperations, replaceSection } = require('../../scripts/render-operations') as {
	renderOperations: (nodes: unknown) => string;
	replaceSection: (text: string, generated: string, start?: string, end?: string) => string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require('../../scripts/render-tools') as { renderTools: (nodes: unknown) => string; START: string; END: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = require('../../scripts/render-names') as { renderNames: (pkg: unknown) => string; START: string; END: string };

const root = join(__dirname, '..', '..');

// The nodes npm run docs renders, from the sources the build compiles.
const pkg = packageNodes(root, (entry) => join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
// docs/public-names.md writes the public contract in the repository: its generated part must match
// the nodes, and every output name it lists must be one the nodes write.
const contract = readFileSync(join(root, 'docs', 'public-names.md'), 'utf8');

/** The anchors GitHub gives README's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const found = new Set<string>();
	for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
		const slug = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		found.add(count ? `${slug}-${count}` : slug);
	}
	return found;
}

describe('README, the sections npm run docs renders (run it when this fails)', () => {
	it('the operation reference matches the operation tables', () => {
		expect(readme).toBe(replaceSection(readme, renderOperations(pkg.nodes)));
	});

	it('the table of reads and actions matches the operation tables', () => {
		const generated = tools.renderTools(pkg.nodes);
		expect(generated).toMatch(/\| Payments \| Challenge Deposit \(`challengeDeposit`\) \| moves money \|/);
		expect(readme).toBe(replaceSection(readme, generated, tools.START, tools.END));
	});
});

describe('README links', () => {
	const headings = anchors(readme);

	it('every anchor a codex file links to is a heading of README', () => {
		const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
		const urls = packageJson.n8n.nodes.flatMap((entry) => {
			const codex = readFileSync(join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.json')), 'utf8');
			return [...codex.matchAll(/"url": "https:\/\/github\.com\/verification-services\/n8n-nodes-verification-services#([^"]+)"/g)].map((m) => m[1]);
		});
		expect(urls).toEqual(expect.arrayContaining(['operations', 'trigger', 'credentials']));
		expect(urls.filter((anchor) => !headings.has(anchor))).toEqual([]);
	});

	it('every link within README names one of its headings', () => {
		const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
		expect(links.filter((anchor) => !headings.has(anchor))).toEqual([]);
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

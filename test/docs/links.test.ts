/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';

// Every link a user follows lands: the relative links and anchors of the Markdown files, the links of
// the example workflows' notes, and the documentation links the editor opens (the nodes' codex files,
// the credentials' documentationUrl). And no old name of a shape that never shipped where users read.
const root = join(__dirname, '..', '..');
const REPO = 'https://github.com/verification-services/n8n-nodes-verification-services';
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const listed = (dir: string, ext: string) =>
	readdirSync(join(root, dir))
		.filter((f) => f.endsWith(ext))
		.map((f) => join(dir, f));

const MARKDOWN = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'sandbox/README.md', 'test/e2e/README.md', 'bench/README.md', ...listed('docs', '.md')];
const EXAMPLES = listed('examples', '.json').filter((f) => !f.includes('credentials'));

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
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

/** What is wrong with a link from `from` (a repository file), or undefined when it lands. */
function broken(from: string, target: string): string | undefined {
	if (/^(https?:|mailto:)/.test(target) && !target.startsWith(REPO)) return undefined;
	const local = target.startsWith(REPO) ? target.slice(REPO.length).replace(/^\/blob\/main\//, '').replace(/^\/?#/, 'README.md#') || 'README.md' : target;
	const [path, anchor] = local.split('#');
	const file = target.startsWith(REPO) ? path : path ? normalize(join(dirname(from), path)) : from;
	if (!existsSync(join(root, file))) return `${from}: ${target} (no file ${file})`;
	if (anchor && !anchors(read(file)).has(anchor)) return `${from}: ${target} (no heading #${anchor} in ${file})`;
	return undefined;
}

const linksIn = (markdown: string) => [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
const notesOf = (file: string) => (JSON.parse(read(file)) as { nodes: Array<{ type: string; parameters: { content?: string } }> }).nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote').map((n) => n.parameters.content ?? '');

describe('links', () => {
	it.each(MARKDOWN)('%s: every relative link and anchor lands', (file) => {
		expect(linksIn(read(file)).map((target) => broken(file, target)).filter(Boolean)).toEqual([]);
	});

	it.each(EXAMPLES)('%s: every link of its notes lands', (file) => {
		expect(notesOf(file).flatMap(linksIn).map((target) => broken(file, target)).filter(Boolean)).toEqual([]);
	});

	it("the editor's documentation links (codex files, credentials) land on a file and heading of the repository", () => {
		const sources = [...listed('nodes/VerificationServices', '.node.json'), ...listed('nodes/VerificationServicesTrigger', '.node.json'), ...listed('credentials', '.ts')];
		const urls = sources.flatMap((file) => [...read(file).matchAll(new RegExp(`${REPO}[^"'\\s]*`, 'g'))].map((m) => [file, m[0]] as const));
		expect(urls.length).toBeGreaterThanOrEqual(4);
		expect(urls.map(([file, url]) => broken(file, url)).filter(Boolean)).toEqual([]);
	});
});

/** Names of a shape that never shipped: the package has one node, IDCanopy Umbrella, and one trigger. */
const OLD_NAMES = [/Verification Webhook Trigger/, /QES Onboarding Trigger/, /QES Trigger/, /\bthe QES node\b/i, /Verification Services (Webhook )?API\b/, /\bTool Output\b/, /nodes? and triggers/];

describe('current names where users read', () => {
	const userFacing = [
		...MARKDOWN.filter((f) => f !== 'bench/README.md'),
		...EXAMPLES,
		'package.json',
		...readdirSync(join(root, 'nodes'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|json)$/.test(f)).map((f) => join('nodes', f)),
		...listed('credentials', '.ts'),
	];

	it.each(userFacing)('%s names no node, trigger or credential that never shipped', (file) => {
		const text = `${file}\n${read(file)}`;
		expect(OLD_NAMES.filter((name) => name.test(text)).map(String)).toEqual([]);
	});

	// A golden workflow is never edited (CONTRIBUTING.md), but its file name is what a contributor reads.
	it('the golden workflows are named by the current names', () => {
		const names = [...listed('test/golden/workflows', '.json'), ...listed('test/golden/expected', '.json')];
		expect(names.filter((name) => /webhook-trigger|trigger-webhook|verification-webhook/.test(name))).toEqual([]);
	});
});

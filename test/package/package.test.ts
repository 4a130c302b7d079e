/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	description: string;
	keywords: string[];
	scripts: Record<string, string>;
	n8n: { n8nNodesApiVersion: number; strict: boolean; nodes: string[]; credentials: string[] };
};

describe('the published package', () => {
	it('follows n8n community-package rules', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['n8n-workflow']);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
		for (const script of ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish']) {
			expect(pkg.scripts[script]).toBeUndefined();
		}
	});

	it('names its provider where the npm search and n8n’s reviewers look', () => {
		expect(pkg.description).toMatch(/^An n8n node and trigger for the IDCanopy Umbrella API: /);
		expect(pkg.keywords).toEqual(expect.arrayContaining(['IDCanopy', 'Umbrella']));
	});

	it('packs only dist/, package.json, README and LICENSE, with every listed node and credential', () => {
		if (!existsSync(join(root, 'dist'))) throw new Error('run npm run build first');
		const [packed] = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
		) as Array<{ files: Array<{ path: string }> }>;
		const files = packed.files.map((f) => f.path);
		expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(entry);
		// Every icon a node or credential names (file: paths relative to its built file) is packed.
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const Class = Object.values(require(join(root, entry)) as Record<string, new () => { description?: { icon?: unknown }; icon?: unknown }>)[0];
			const instance = new Class();
			const icon = (instance.description?.icon ?? instance.icon) as { light: string; dark: string };
			for (const file of [icon.light, icon.dark]) expect(files).toContain(join(dirname(entry), file.replace(/^file:/, '')));
		}
		expect(files.some((f) => /\.test\.|sandbox|\.ts$/.test(f))).toBe(false);
	});
});

// The release workflow: npm trusted publishing (OIDC) with provenance, what n8n's verification needs.
const workflow = readFileSync(join(root, '.github', 'workflows', 'publish.yml'), 'utf8');
const steps = workflow.slice(workflow.indexOf('steps:'));
const at = (text: string) => {
	const index = steps.indexOf(text);
	if (index < 0) throw new Error(`publish.yml has no step with "${text}"`);
	return index;
};

describe('.github/workflows/publish.yml', () => {
	it('publishes by trusted publishing: an OIDC token, no npm token, npm 11.5.1 or newer on Node 24', () => {
		expect(workflow).toMatch(/^\s+id-token: write/m);
		expect(workflow).toMatch(/node-version: 24\b/);
		expect(workflow).toMatch(/npm install -g npm@\^11\.5\.1/);
		expect(workflow).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|_authToken=|^\s+registry-url:/m);
		expect(workflow).toMatch(/npm publish --provenance --access public/);
	});

	it('checks the tag against package.json and runs the verification before it publishes', () => {
		const publish = at('npm publish');
		expect(at('$GITHUB_REF_NAME')).toBeLessThan(publish);
		for (const command of ['npm ci', 'npm run lint', 'npm run typecheck', 'npm run build', 'npm run test:unit', 'npm run test:verify']) {
			expect(at(command)).toBeLessThan(publish);
		}
	});
});

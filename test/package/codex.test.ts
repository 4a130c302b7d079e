/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyCollection, INodeType } from 'n8n-workflow';

// What n8n's community-node rules on their main branch ask of a codex file and of a node's fields
// (@n8n/eslint-plugin-community-nodes: valid-node-categories, no-codex-subcategories, hint-max-length),
// and what a user searching the node panel for the provider needs to find every node.

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
const sources = pkg.n8n.nodes.map((file) => join(root, file.replace(/^dist\//, '').replace(/\.js$/, '')));

const N8N_CATEGORIES = ['Data & Storage', 'Finance & Accounting', 'Marketing & Content', 'Productivity', 'Miscellaneous', 'Sales', 'Development', 'Analytics', 'Communication', 'Utility'];
const PROVIDER_DOCS = 'https://umbrella-docs.info';

interface Codex {
	node: string;
	categories?: string[];
	subcategories?: unknown;
	alias?: string[];
	resources?: { primaryDocumentation?: Array<{ url: string }>; credentialDocumentation?: Array<{ url: string }> };
}

const codexOf = (source: string) => JSON.parse(readFileSync(`${source}.json`, 'utf8')) as Codex;

function nodeOf(source: string): INodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const NodeClass = Object.values(require(`${source}.ts`) as Record<string, new () => INodeType>)[0];
	return new NodeClass();
}

/** Every field of a node, the ones inside collections and fixed collections too. */
function allProperties(properties: Array<INodeProperties | INodePropertyCollection>): INodeProperties[] {
	return properties.flatMap((p) => {
		const own = 'type' in p ? [p] : [];
		const nested = ((p as INodeProperties).options ?? (p as INodePropertyCollection).values ?? []).filter(
			(o): o is INodeProperties | INodePropertyCollection => typeof o === 'object' && ('type' in o || 'values' in o),
		);
		return [...own, ...allProperties(nested)];
	});
}

// The words a user searching the node panel types, for each node: the groups of the action node and
// the events of the trigger, with the provider's names. Matched case-insensitively against the aliases.
const SEARCHED: Record<string, string[]> = {
	verificationServices: ['AML', 'sanctions', 'PEP', 'KYB', 'company', 'payment', 'OTP', 'phone', 'QES', 'signature', 'IDCanopy', 'Umbrella'],
	verificationServicesTrigger: ['QES', 'signature', 'payment', 'journey', 'webhook', 'IDCanopy', 'Umbrella'],
};

describe('the codex files', () => {
	it('cover exactly the package’s nodes, each with its searched words', () => {
		expect(sources.map((s) => nodeOf(s).description.name).sort()).toEqual(Object.keys(SEARCHED).sort());
	});
});

describe.each(sources.map((s) => [s.slice(root.length + 1), s]))('%s', (_name, source) => {
	const codex = codexOf(source);
	const { name } = nodeOf(source).description;

	it('names the node’s type when installed from npm', () => {
		expect(codex.node).toBe(`n8n-nodes-verification-services.${name}`);
	});

	it('is found by the words a user searches for', () => {
		const aliases = (codex.alias ?? []).map((a) => a.toLowerCase());
		expect(SEARCHED[name].filter((word) => !aliases.includes(word.toLowerCase()))).toEqual([]);
	});

	it('has only categories from n8n’s list, and no subcategories', () => {
		expect(codex.categories?.length).toBeGreaterThan(0);
		for (const category of codex.categories ?? []) expect(N8N_CATEGORIES).toContain(category);
		expect(codex).not.toHaveProperty('subcategories');
	});

	it('is found by the provider’s names and links the provider’s documentation', () => {
		expect(codex.alias).toEqual(expect.arrayContaining(['IDCanopy', 'Umbrella']));
		const links = (codex.resources?.primaryDocumentation ?? []).map((d) => d.url);
		// Where it lands: test/docs/links.test.ts.
		expect(links[0]).toMatch(/^https:\/\/github\.com\/verification-services\/n8n-nodes-verification-services\/blob\/main\/docs\//);
		expect(links).toContain(PROVIDER_DOCS);
	});

	it('keeps every hint within 120 characters', () => {
		const long = allProperties(nodeOf(source).description.properties)
			.filter((p) => (p.hint ?? '').length > 120)
			.map((p) => `${p.name}: ${p.hint!.length}`);
		expect(long).toEqual([]);
	});
});

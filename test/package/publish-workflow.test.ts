/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

// The release workflow: npm trusted publishing (OIDC) with provenance, what n8n's verification needs.
const workflow = readFileSync(join(__dirname, '..', '..', '.github', 'workflows', 'publish.yml'), 'utf8');
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

import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const runtime = ['nodes/**/*.ts', 'credentials/**/*.ts'];

export default tseslint.config(
	{
		ignores: ['dist/**', 'node_modules/**', 'test/e2e/**/node_modules/**', 'coverage/**', '.n8n-local/**', 'bench/.work/**'],
	},
	...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts', '**/*.js', '**/*.mjs'] })),
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly' } },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['**/*.ts', '**/*.js', '**/*.mjs'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
		},
	},
	// n8n's package scanner rules (what a verified community package must pass).
	{ files: [...runtime, 'package.json'], ...n8nCommunityNodesPlugin.configs.recommended },
	// eslint-plugin-n8n-nodes-base: its community, credentials and nodes rule sets.
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Written for n8n's built-in credentials (slug only); community credentials link a URL, as the rule above demands.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Superseded by @n8n/community-nodes/node-connection-type-literal, which asks for NodeConnectionTypes.Main.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
);

// `npm run lint`: the whole repository. The TypeScript sources (nodes, credentials, tests) and
// package.json get n8n's default community-node config, the one `eslint.config.mjs` holds unchanged for
// `npx n8n-node lint` and n8n's reviewers; the scripts, the sandbox emulator and the e2e harness (plain
// JavaScript, never published) get typescript-eslint's recommended rules on top.
import { config as n8nDefault } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

const javascript = ['**/*.js', '**/*.cjs', '**/*.mjs'];
const SHARED = ['responses', 'delivery', 'transport', 'fields', 'operation'];

/** `folder` of nodes/shared may import from `below` only, among the shared folders, and no node folder. */
function sharedLayer(folder, below) {
	const refused = SHARED.filter((other) => other !== folder && !below.includes(other));
	return [
		{
			files: [`nodes/shared/${folder}/**/*.ts`],
			rules: {
				'no-restricted-imports': [
					'error',
					{
						patterns: [
							{
								group: [
									...refused.map((other) => `../${other}/**`),
									'../../*/**',
									'!../../shared/**',
								],
								message: `nodes/shared/${folder} imports only from ${below.length ? below.join(', ') : 'no other shared folder'} (docs/design.md, "Layers").`,
							},
						],
					},
				],
			},
		},
	];
}

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'test/e2e/**/node_modules/**',
			'coverage/**',
			'.n8n-local/**',
			'bench/.work/**',
		],
	},
	...n8nDefault,
	{
		// The shared layer's rooms depend on each other in one direction only.
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		settings: { 'import-x/extensions': ['.ts'] },
		rules: { 'import-x/no-cycle': 'error' },
	},
	// The shared layer's folders, lowest first (docs/design.md, "Layers"): each imports only the ones
	// below it, and none a node folder.
	...sharedLayer('responses', []),
	...sharedLayer('delivery', ['responses']),
	...sharedLayer('transport', ['responses']),
	...sharedLayer('fields', ['responses', 'transport']),
	...tseslint.configs.recommended.map((config) => ({ ...config, files: javascript })),
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: {
			sourceType: 'commonjs',
			globals: {
				require: 'readonly',
				module: 'writable',
				process: 'readonly',
				__dirname: 'readonly',
				console: 'readonly',
				Buffer: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				setInterval: 'readonly',
				clearInterval: 'readonly',
				URL: 'readonly',
			},
		},
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: javascript,
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
			],
		},
	},
);

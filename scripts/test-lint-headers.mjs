// Test files break some of n8n's rules for node runtime code on purpose (they start servers, wait on
// timers, read files, run npm, use made-up secrets), and `npx n8n-node lint` lints them with n8n's
// default config all the same. Each such file starts with one comment that turns off exactly the rules
// it breaks; this script writes that first line from what the default config reports (a rule the file
// no longer breaks leaves the comment, so no unused directive is left behind).
//
//   node scripts/test-lint-headers.mjs           # rewrite the headers of test/**/*.ts
//   node scripts/test-lint-headers.mjs --check   # only list the files whose header is not right
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNTIME_RULES = [
	'@n8n/community-nodes/no-dangerous-functions',
	'@n8n/community-nodes/no-hardcoded-secrets',
	'@n8n/community-nodes/no-restricted-globals',
	'@n8n/community-nodes/no-restricted-imports',
];
const REASON = "test code, never published: n8n's rules for node runtime code do not apply";
const HEADER = /^\/\* eslint-disable (@n8n\/community-nodes\/[\w-]+)(, @n8n\/community-nodes\/[\w-]+)* -- test code[^\n]*\*\/\n/;

const checkOnly = process.argv.includes('--check');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.mjs') });
const files = fs
	.readdirSync(path.join(root, 'test'), { recursive: true })
	.filter((f) => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
	.map((f) => path.join(root, 'test', f))
	.sort();

let wrong = 0;
const leftOver = [];
for (const file of files) {
	const text = fs.readFileSync(file, 'utf8');
	const body = text.replace(HEADER, '');
	const [result] = await eslint.lintText(body, { filePath: file });
	const broken = [...new Set(result.messages.map((m) => m.ruleId).filter((r) => RUNTIME_RULES.includes(r)))].sort();
	const header = broken.length ? `/* eslint-disable ${broken.join(', ')} -- ${REASON} */\n` : '';
	const relative = path.relative(root, file);
	for (const m of result.messages.filter((m) => !RUNTIME_RULES.includes(m.ruleId))) leftOver.push(`${relative}:${m.line}: ${m.ruleId ?? 'parse'}: ${m.message}`);
	if (header + body === text) continue;
	wrong += 1;
	if (checkOnly) console.log(`header not right: ${relative}${broken.length ? ` (breaks ${broken.join(', ')})` : ''}`);
	else {
		fs.writeFileSync(file, header + body);
		console.log(`header written: ${relative}`);
	}
}
// With a header, a line-level directive (eslint-disable-next-line ... -- reason) still counts: it is in the body.
for (const line of leftOver) console.log(`fix by hand: ${line}`);
process.exitCode = (checkOnly && wrong) || leftOver.length ? 1 : 0;

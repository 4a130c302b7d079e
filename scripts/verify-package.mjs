// What n8n checks before it verifies a community package, run offline on this checkout:
//  - @n8n/scan-community-package's analyzePackage on the packed tarball (compiled .js + package.json)
//    and on the sources (what its provenance leg lints after fetching the attested commit);
//  - `npx n8n-node cloud-support` and `npx n8n-node lint` in the repository root, exactly as a reviewer
//    runs them: strict mode, eslint.config.mjs unchanged from n8n's default, and that config green on
//    every file (`npm run lint` adds the wider checks of eslint.repository.config.mjs).
// The scanner's provenance step needs a published version's attestation from the registry; it cannot
// run before a release.
// Usage: node scripts/verify-package.mjs [--json]   (npm run build first)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scanner = () => import('@n8n/scan-community-package/scanner/scanner.mjs');
const verdict = (result) => ({ passed: result.passed, details: result.details ?? result.message ?? '' });

async function scanTarball(work) {
	const { analyzePackage } = await scanner();
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
	const [packed] = JSON.parse(out.slice(out.indexOf('[')));
	const pkgDir = path.join(work, 'package');
	fs.mkdirSync(pkgDir);
	execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', pkgDir, '--strip-components=1']);
	return verdict(await analyzePackage(pkgDir, ['**/*.js', 'package.json']));
}

async function scanSources() {
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await scanner();
	return verdict(await analyzePackage(root, SOURCE_FILE_PATTERNS));
}

/** Runs `npx n8n-node <args>` in the repository root, as a reviewer does; its output without colours. */
function n8nNode(args) {
	const cli = path.join(root, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
	const run = spawnSync(process.execPath, [cli, ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
		timeout: 5 * 60 * 1000,
	});
	const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.replace(/\u001b\[[0-9;]*m/g, '').split(root).join('.').trim();
	return { status: run.status, output };
}

/** `n8n-node cloud-support`: strict mode on and eslint.config.mjs exactly n8n's default. */
function cloudSupport() {
	const { output } = n8nNode(['cloud-support']);
	const eligible = /Status: eligible for n8n Cloud verification/.test(output);
	return { passed: eligible, details: eligible ? '' : output };
}

/** `n8n-node lint`: n8n's default config on the whole repository (it refuses a modified config in strict mode). */
function lint() {
	const { status, output } = n8nNode(['lint']);
	const hint = /\.\/test\//.test(output) ? '\nA test file breaks a rule for node runtime code: node scripts/test-lint-headers.mjs writes its header.' : '';
	return { passed: status === 0, details: status === 0 ? '' : `${output}${hint}` };
}

/** Each check by name; `run(work)` gets a folder of its own and resolves to { passed, details }. */
export const CHECKS = [
	{ check: 'scan-community-package: tarball', run: scanTarball },
	{ check: 'scan-community-package: sources', run: scanSources },
	{ check: 'n8n-node cloud-support (in the repository root)', run: cloudSupport },
	{ check: 'n8n-node lint (in the repository root)', run: lint },
];

/** Runs one check in a temporary folder that is removed afterwards. */
export async function runCheck({ check, run }) {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nvs-verify-'));
	try {
		return { check, ...(await run(work)) };
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const results = [];
	for (const c of CHECKS) results.push(await runCheck(c));
	if (process.argv.includes('--json')) console.log(JSON.stringify(results));
	else for (const r of results) console.log(`${r.passed ? 'pass' : 'FAIL'}  ${r.check}${r.passed ? '' : `\n${r.details}`}`);
	process.exitCode = results.every((r) => r.passed) ? 0 : 1;
}

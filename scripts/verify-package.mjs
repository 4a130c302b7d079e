// What n8n checks before it verifies a community package, run offline on this checkout:
//  - @n8n/scan-community-package's analyzePackage on the packed tarball (compiled .js + package.json)
//    and on the sources (what its provenance leg lints after fetching the attested commit);
//  - @n8n/node-cli's cloud-support check: `"strict": true` in package.json and `n8n-node lint` with
//    n8n's default eslint.config.mjs, run on a staged copy of the package (this repository keeps a
//    wider ESLint config that also covers tests and scripts).
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

function strictMode() {
	const strict = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).n8n?.strict === true;
	return { passed: strict, details: strict ? '' : 'package.json n8n.strict is not true' };
}

function cloudLint(work) {
	const stage = path.join(work, 'stage');
	fs.mkdirSync(stage);
	for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials', 'icons']) {
		fs.cpSync(path.join(root, entry), path.join(stage, entry), { recursive: true });
	}
	const cli = path.join(root, 'node_modules', '@n8n', 'node-cli');
	fs.copyFileSync(path.join(cli, 'dist/template/templates/shared/default/eslint.config.mjs'), path.join(stage, 'eslint.config.mjs'));
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
	const lint = spawnSync(process.execPath, [path.join(cli, 'bin', 'n8n-node.mjs'), 'lint'], {
		cwd: stage,
		encoding: 'utf8',
		env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
		timeout: 5 * 60 * 1000,
	});
	const details = `${lint.stdout ?? ''}${lint.stderr ?? ''}`.replace(/\u001b\[[0-9;]*m/g, '').split(stage).join('.');
	return { passed: lint.status === 0, details: lint.status === 0 ? '' : details.trim() };
}

/** Each check by name; `run(work)` gets a folder of its own and resolves to { passed, details }. */
export const CHECKS = [
	{ check: 'scan-community-package: tarball', run: scanTarball },
	{ check: 'scan-community-package: sources', run: scanSources },
	{ check: 'n8n-node cloud-support: strict mode', run: strictMode },
	{ check: 'n8n-node lint (default cloud config)', run: cloudLint },
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

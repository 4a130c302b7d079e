// What n8n's scanner checks before it verifies a community package, run offline on this checkout:
// @n8n/scan-community-package's analyzePackage on the packed tarball (compiled .js + package.json)
// and on the sources (what its provenance leg lints). Its provenance step needs a published version.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvs-scan-'));
try {
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }));
	const pkgDir = path.join(dir, 'package');
	fs.mkdirSync(pkgDir);
	execFileSync('tar', ['-xzf', path.join(dir, packed.filename), '-C', pkgDir, '--strip-components=1']);
	const legs = [
		['tarball', await analyzePackage(pkgDir, ['**/*.js', 'package.json'])],
		['sources', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
	];
	for (const [name, r] of legs) console.log(`${r.passed ? 'pass' : 'FAIL'}  scan of the ${name}${r.details ? `\n${r.details}` : ''}`);
	process.exitCode = legs.every(([, r]) => r.passed) ? 0 : 1;
} finally {
	fs.rmSync(dir, { recursive: true, force: true });
}

#!/usr/bin/env node
'use strict';
// Entry point of `npm run test:e2e`:
//   1. installs both pinned n8n versions (in parallel; a no-op when node_modules matches the lockfile),
//   2. builds the package if dist/ is missing (done lazily by the tests' createInstance),
//   3. runs `node --test --test-concurrency=1 test/e2e/` and exits with its code.
// Extra arguments go to node --test (e.g. --test-name-pattern=server).
// Env: N8N_E2E_VERSIONS=v2,v1 (which versions), N8N_E2E_KEEP=1 (keep instance folders),
//      N8N_E2E_WORK_DIR (where instances live; default $TMPDIR/n8n-nodes-verification-services-e2e).

const { spawn } = require('node:child_process');
const path = require('node:path');
const { ensureN8n } = require('./lib/install');

const E2E_DIR = __dirname;
const REPO_ROOT = path.resolve(E2E_DIR, '..', '..');

async function main() {
	const versions = (process.env.N8N_E2E_VERSIONS || 'v2,v1').split(',').map((v) => v.trim()).filter(Boolean);
	const t0 = Date.now();
	const runtimes = await Promise.all(versions.map((v) => ensureN8n(v)));
	for (const rt of runtimes) {
		const how = rt.installed ? `installed now in ${Math.round(rt.marker.timings.totalMs / 1000)} s` : 'already installed';
		process.stdout.write(`e2e: n8n ${rt.n8nVersion} (${rt.version}) on Node ${rt.marker.nodeVersion}: ${how}\n`);
	}
	process.stdout.write(`e2e: runtimes ready in ${Math.round((Date.now() - t0) / 1000)} s\n`);

	// node --test searches test/e2e/ for *.test.js (node_modules excluded).
	const args = ['--test', '--test-concurrency=1', ...process.argv.slice(2), path.join('test', 'e2e') + path.sep];
	const env = { ...process.env, N8N_E2E_VERSIONS: versions.join(',') };
	// node --test prints the spec reporter to a TTY and TAP otherwise; ask for spec so the closing
	// summary lines (# pass / # fail or ℹ pass / ℹ fail) are always readable.
	if (!args.some((a) => a.startsWith('--test-reporter'))) args.unshift('--test-reporter=spec');
	const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: 'inherit' });
	const forward = (sig) => () => child.kill(sig);
	process.on('SIGINT', forward('SIGINT'));
	process.on('SIGTERM', forward('SIGTERM'));
	child.on('exit', (code, signal) => {
		process.stdout.write(`e2e: finished in ${Math.round((Date.now() - t0) / 1000)} s\n`);
		process.exit(code ?? (signal ? 1 : 0));
	});
}

main().catch((error) => {
	process.stderr.write(`e2e: ${error.stack ?? error}\n`);
	process.exit(1);
});

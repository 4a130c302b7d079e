'use strict';
// `npm start` stops cleanly when the npm process itself gets SIGINT or SIGTERM (a process manager,
// `kill -INT <npm pid>`): it prints "[start] stopping n8n and the emulator" and leaves no process.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { REPO_ROOT, freePort, sleep, freshFetch } = require('./lib/util');

function descendants(pid) {
	const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid='], { encoding: 'utf8' });
	const rows = out.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
	const found = new Set();
	let grew = true;
	while (grew) {
		grew = false;
		for (const [p, pp] of rows) {
			if ((pp === pid || found.has(pp)) && !found.has(p)) {
				found.add(p);
				grew = true;
			}
		}
	}
	return found;
}

const alive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

// npm passes SIGINT and SIGTERM on to the script alike: SIGTERM stands for both.
const CASES = [
	{ signal: 'SIGTERM', to: 'the npm process', group: false },
	{ signal: 'SIGINT', to: 'the foreground group (Ctrl-C)', group: true },
	{ signal: 'SIGKILL', to: 'the npm process (the tree notices its parent is gone)', group: false },
];

// The cases run at once, each npm start on its own ports and folder.
describe('npm start', { concurrency: true }, () => {
	for (const { signal, to, group } of CASES) {
		test(`npm start stops on ${signal} sent to ${to}, with its message and no process left`, { timeout: 10 * 60 * 1000 }, async () => {
			const folder = fs.mkdtempSync(path.join(process.env.N8N_E2E_WORK_DIR || os.tmpdir(), 'start-'));
			const env = { ...process.env, N8N_PORT: String(await freePort()), SANDBOX_PORT: String(await freePort()), N8N_LOCAL_FOLDER: folder };
			const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
			let output = '';
			npm.stdout.on('data', (d) => (output += d));
			npm.stderr.on('data', (d) => (output += d));
			const exited = new Promise((resolve) => npm.once('exit', (code, sig) => resolve({ code, sig })));
			let tree = new Set();
			let passed = false;
			try {
				const started = Date.now();
				while (!/n8n is ready/.test(output)) {
					assert.ok(Date.now() - started < 8 * 60 * 1000, `npm start did not get ready:\n${output.slice(-3000)}`);
					assert.ok(npm.exitCode === null, `npm start exited early:\n${output.slice(-3000)}`);
					await sleep(500);
				}
				tree = descendants(npm.pid);
				assert.ok(tree.size >= 2, 'n8n and its helpers run under npm');
				const controls = /controls: (\S+?),/.exec(output)?.[1];
				const listed = await (await freshFetch(controls)).json();
				assert.ok(listed.controls.includes('POST /__control/reset'), `the printed control URL ${controls} lists the controls`);
				process.kill(group ? -npm.pid : npm.pid, signal);
				const result = await Promise.race([exited, sleep(45000).then(() => null)]);
				assert.ok(result, `npm start still running 45 s after ${signal}:\n${output.slice(-2000)}`);
				for (let waited = 0; waited < 45000 && [...tree].some(alive); waited += 500) await sleep(500);
				assert.match(output, /\[start\] stopping n8n and the emulator/);
				// npm test installed n8n before this test runs: npm start reuses it.
				assert.match(output, /\[start\] n8n [\d.]+ already installed in test\/e2e\/n8n-v2/);
				const left = [...tree].filter(alive);
				assert.deepEqual(left, [], `processes left after ${signal}`);
				passed = true;
			} finally {
				// n8n runs in a process group of its own: a failed check must not leave it running.
				for (const pid of passed ? [] : [npm.pid, ...tree, ...descendants(npm.pid)]) {
					try {
						process.kill(pid, 'SIGKILL');
					} catch {
						/* gone */
					}
				}
				fs.rmSync(folder, { recursive: true, force: true });
			}
		});
	}
});

'use strict';
// Old and new code alternating in one bench session: `node bench/alternate.js <old checkout> [rounds]`
// runs bench/run.js (with the environment given, e.g. BENCH_ONLY=book) once with the package built in
// <old checkout> (N8N_E2E_PACKAGE_DIR) and once with this repository's, `rounds` times (default 1),
// old first. Build both first (`npm run build` in each); every run's results.json is kept as
// bench/.work/alternate/<n>-<old|new>.json and its table printed. Machine load drifts: compare medians.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const [oldDir, rounds = '1'] = process.argv.slice(2);
if (!oldDir) throw new Error('usage: node bench/alternate.js <old checkout, built> [rounds]');
const outDir = path.join(__dirname, '.work', 'alternate');
fs.mkdirSync(outDir, { recursive: true });
let n = 0;
for (let round = 0; round < Number(rounds); round++) {
	for (const [label, packageDir] of [['old', path.resolve(oldDir)], ['new', path.resolve(__dirname, '..')]]) {
		n++;
		process.stderr.write(`[alternate] run ${n}: ${label} (${packageDir})\n`);
		const env = { ...process.env, BENCH_SKIP_BUILD: '1', N8N_E2E_PACKAGE_DIR: packageDir };
		const run = spawnSync(process.execPath, [path.join(__dirname, 'run.js')], { env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
		process.stdout.write(`\n## run ${n}: ${label}\n${run.stdout}`);
		if (run.status !== 0) throw new Error(`bench run ${n} (${label}) failed with ${run.status}`);
		fs.copyFileSync(path.join(__dirname, '.work', 'results.json'), path.join(outDir, `${n}-${label}.json`));
	}
}

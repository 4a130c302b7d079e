'use strict';
// Installs the dev dependencies when a fresh clone has none (or the lockfile changed), so that README's two
// commands work on a new machine: bun from package-lock.json as for the n8n trees (test/e2e/lib/npm-install.js),
// 8 CPU-s where `npm ci` took 73. `node scripts/ensure-deps.js` installs them; npm test runs it as a suite.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { npmInstall, installedFromLockfile } = require('../test/e2e/lib/npm-install');

const root = path.resolve(__dirname, '..');
const INSTALLED = '.installed-from-lockfile';

/** Whether node_modules is missing or older than the lockfile (npm's record of an install counts too). */
const devDependenciesStale = () => !installedFromLockfile(root, [INSTALLED, '.package-lock.json']);

/** Installs them now, before anything else runs (npm start). */
function ensureDevDependencies() {
	if (!devDependenciesStale()) return;
	console.log('Installing dev dependencies (bun install from package-lock.json)...');
	execFileSync(process.execPath, [__filename], { cwd: root, stdio: 'inherit' });
}

module.exports = { devDependenciesStale, ensureDevDependencies };

if (require.main === module) {
	npmInstall(root, { command: 'bun', label: 'dev dependencies', log: console.log })
		.then(() => fs.writeFileSync(path.join(root, 'node_modules', INSTALLED), ''))
		.catch((error) => {
			console.error(error.message);
			process.exit(1);
		});
}

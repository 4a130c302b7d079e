'use strict';
// Installs the package's dev dependencies when a fresh clone has none (or the lockfile changed), so that
// README's two commands work on a new machine without a separate install step.
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const NPM_CI = ['npm', 'ci', '--no-audit', '--no-fund'];

/** Whether node_modules is missing or older than the lockfile. */
function devDependenciesStale() {
	const installed = path.join(root, 'node_modules', '.package-lock.json');
	return !fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(path.join(root, 'package-lock.json')).mtimeMs;
}

/** Installs them now, before anything else runs (npm start). npm test runs the same install as a suite of its own. */
function ensureDevDependencies() {
	if (!devDependenciesStale()) return;
	console.log('Installing dev dependencies (npm ci)...');
	execSync(NPM_CI.join(' '), { cwd: root, stdio: 'inherit' });
}

module.exports = { NPM_CI, devDependenciesStale, ensureDevDependencies };

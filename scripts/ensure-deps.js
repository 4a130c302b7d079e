'use strict';
// Installs the package's dev dependencies when a fresh clone has none (or the lockfile changed), so that
// README's two commands work on a new machine without a separate install step.
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');

const stale = !fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lock).mtimeMs;
if (stale) {
	console.log('Installing dev dependencies (npm ci)...');
	execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

'use strict';
// Installs a tree as large as n8n's (250k files) from its npm lockfile, in a known time. bun (its baseline
// build: any x86-64 CPU), pinned in ../installer and fetched there by `npm ci`, installs the lockfile's versions
// in its own layout with a tenth of the CPU of `npm ci` (n8n 2.x: 36 against 274 CPU-s); without a lockfile
// `npm install` writes one.
// A registry request can hang without a word (a CI run saw `npm ci` silent for 40 min): an attempt silent
// for IDLE_MS is ended and started again, up to ATTEMPTS times, finding what earlier ones cached.

const path = require('node:path');
const fs = require('node:fs');
const { E2E_DIR, runOrThrow, howItEnded, withLock } = require('./util');

const [ATTEMPTS, IDLE_MS, ATTEMPT_MS] = [3, 4 * 60 * 1000, 20 * 60 * 1000];
const NPM = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=http', '--fetch-timeout=120000', '--fetch-retries=4', '--fetch-retry-mintimeout=5000', '--fetch-retry-maxtimeout=30000'];
const INSTALLER = path.join(E2E_DIR, 'installer');
const BUN = path.join(INSTALLER, 'node_modules', '@oven', 'bun-linux-x64-baseline', 'bin', 'bun');

/** The command of each way to install into `dir`, and what it adds to the environment. */
const COMMANDS = {
	// A cache per tree (bun hard-links from it), in a node_modules folder: jest, eslint and n8n's scanner skip it.
	bun: (dir) => [BUN, ['install', '--frozen-lockfile', '--ignore-scripts'], { BUN_INSTALL_CACHE_DIR: path.join(INSTALLER, 'node_modules', '.cache', path.basename(dir)) }],
	ci: () => ['npm', ['ci', ...NPM], {}],
	install: () => ['npm', ['install', ...NPM], {}],
};

// npm settings inherited from an outer `npm run test:e2e` (npm_config_*, e.g. the repo's
// ignore-scripts=true, and npm_package_*/npm_lifecycle_*) must not leak into these installs.
const KEEP_NPM_ENV = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig', 'npm_config_globalconfig']);
function npmEnv(extra = {}) {
	const env = { ...process.env };
	for (const k of Object.keys(env)) {
		if (/^npm_(lifecycle|package|config)_/i.test(k) && !KEEP_NPM_ENV.has(k.toLowerCase())) delete env[k];
	}
	return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** Whether `dir`'s node_modules was installed since its package-lock.json last changed: one of `records` there is newer. */
function installedFromLockfile(dir, records = ['.package-lock.json']) {
	const lockfile = fs.statSync(path.join(dir, 'package-lock.json')).mtimeMs;
	return records.map((r) => path.join(dir, 'node_modules', r)).some((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs >= lockfile);
}

/**
 * Installs into `dir` with `command` (bun from the lockfile, npm ci, or npm install), again when an
 * attempt stalls or fails. Returns the number of attempts it took; throws with every attempt's reason
 * when none succeeded.
 */
async function npmInstall(dir, { command = 'bun', label, log, env = {}, idleTimeoutMs = IDLE_MS, attempts = ATTEMPTS }) {
	// npm writes node_modules/.package-lock.json last; one older than package-lock.json is a former pin's.
	if (command === 'bun' && !installedFromLockfile(INSTALLER)) {
		const fetchBun = () => installedFromLockfile(INSTALLER) || npmInstall(INSTALLER, { command: 'ci', label: `${label} (bun)`, log });
		fs.mkdirSync(path.join(E2E_DIR, '.cache'), { recursive: true });
		await withLock(path.join(E2E_DIR, '.cache', 'installer.lock'), fetchBun, { log });
	}
	const [cmd, args, own] = COMMANDS[command](dir);
	const name = command === 'bun' ? 'bun install' : `npm ${command}`;
	const options = { cwd: dir, env: npmEnv({ ...own, ...env }), timeoutMs: ATTEMPT_MS, idleTimeoutMs };
	const earlier = [];
	for (let attempt = 1; ; attempt++) {
		try {
			await runOrThrow(cmd, args, options);
			return attempt;
		} catch (error) {
			if (!error.result || attempt === attempts) {
				error.message = [`${label}: ${name}, attempt ${attempt} of ${attempts}: ${error.message}`, ...earlier].join('\n');
				throw error;
			}
			const lastLine = `${error.result.stderr}${error.result.stdout}`.trim().split('\n').pop().slice(0, 200);
			const ended = howItEnded(error.result, options);
			earlier.push(`attempt ${attempt}: ${ended}; its last line: ${lastLine}`);
			log(`${label}: ${name} ${ended} (its last line: ${lastLine}); attempt ${attempt + 1} of ${attempts}`);
		}
	}
}

module.exports = { npmInstall, npmEnv, installedFromLockfile };

'use strict';
// What `npm start` and `npm test` say while they install an n8n version (the first run on a fresh clone):
// what they install where, how big it is, how long that took here the last time (or usually takes), and
// a line every 30 s until it is done.

const fs = require('fs');
const path = require('path');
const { isInstalled, runtimeFor, VERSIONS } = require('../../test/e2e/lib/install');

const SIZE = { v2: '2.8 GB, ~2300 packages', v1: '1.7 GB, ~1900 packages' };
const USUAL = 'usually 4 to 5 minutes on a quiet 2-core machine, up to 10 on a busy one, both versions at once';

/** "the last install here (...) took ..." from the install markers found, or the usual time. */
function lastInstallTime() {
	for (const version of VERSIONS) {
		try {
			const { timings: t, n8nVersion } = JSON.parse(fs.readFileSync(path.join(runtimeFor(version).dir, 'node_modules', '.e2e-install.json'), 'utf8'));
			return `the last install here (n8n ${n8nVersion}) took ${Math.round(t.totalMs / 1000)} s: npm ${Math.round(t.npmMs / 1000)} s, sqlite3 ${Math.round(t.sqlite3Ms / 1000)} s`;
		} catch {
			/* no earlier install, or an unreadable marker */
		}
	}
	return USUAL;
}

/**
 * Announces the install of `version` (or that the installed n8n is reused). Returns the function that
 * ends the progress lines.
 * @param {'v1'|'v2'} version
 * @param {{ root: string, log: (message: string) => void, intervalMs?: number }} options
 */
function installProgress(version, { root, log, intervalMs = 30000 }) {
	const runtime = runtimeFor(version);
	const where = `${path.relative(root, runtime.dir)} (shared by npm start and npm test)`;
	if (isInstalled(version)) {
		log(`n8n ${runtime.n8nVersion} already installed in ${where}`);
		return () => {};
	}
	log(`installing n8n ${runtime.n8nVersion} into ${where}: npm ci (${SIZE[version]}), then a build of sqlite3; ${lastInstallTime()}`);
	const started = Date.now();
	const timer = setInterval(() => log(`still installing n8n ${runtime.n8nVersion}... ${Math.round((Date.now() - started) / 1000)} s`), intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}

module.exports = { installProgress };

'use strict';
// What `npm start` and `npm test` say while they install an n8n version (the first run on a fresh clone):
// what they install where, how big it is, how long it usually takes, and a line every 30 s until it is done.

const path = require('path');
const { isInstalled, runtimeFor } = require('../../test/e2e/lib/install');

const SIZE = { v2: '2.8 GB, ~2300 packages', next: '2.8 GB, ~2300 packages', v1: '1.7 GB, ~1900 packages' };

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
	log(`installing n8n ${runtime.n8nVersion} into ${where}: bun install from its npm lockfile (${SIZE[version]}), then a build of sqlite3; one and a half to three minutes on a 2-core machine, both versions at once`);
	const started = Date.now();
	const timer = setInterval(() => log(`still installing n8n ${runtime.n8nVersion}... ${Math.round((Date.now() - started) / 1000)} s`), intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}

module.exports = { installProgress };

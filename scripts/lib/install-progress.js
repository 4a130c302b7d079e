'use strict';
// What `npm start` says while it installs n8n (the first start on a fresh clone): what it is doing,
// how long that took here the last time (or usually takes), and a line every 30 s until it is done.

const fs = require('fs');
const path = require('path');

const USUAL = 'usually 5 to 8 minutes on a cold npm cache';

/** "the last install here (...) took ..." from the first install marker found, or the usual time. */
function lastInstallTime(markerFiles) {
	for (const file of markerFiles) {
		try {
			const { timings: t, n8nVersion } = JSON.parse(fs.readFileSync(file, 'utf8'));
			return `the last install here (n8n ${n8nVersion}) took ${Math.round(t.totalMs / 1000)} s: npm ${Math.round(t.npmMs / 1000)} s, sqlite3 ${Math.round(t.sqlite3Ms / 1000)} s`;
		} catch {
			/* no earlier install, or an unreadable marker */
		}
	}
	return USUAL;
}

/**
 * Announces the install (or that the installed n8n is reused). Returns a function that ends the
 * progress lines, or undefined when nothing is installed.
 * @param {{ installed: false } | { installed: true, n8nVersion: string }} state
 * @param {{ root: string, log: (message: string) => void, intervalMs?: number }} options
 */
function announceInstall(state, { root, log, intervalMs = 30000 }) {
	if (state.installed) {
		log(`n8n ${state.n8nVersion} already installed in test/e2e/n8n-v2 (shared with npm test)`);
		return undefined;
	}
	// The markers of an outdated v2 or of v1 tell how long an install takes on this machine.
	const markers = ['n8n-v2', 'n8n-v1'].map((dir) => path.join(root, 'test/e2e', dir, 'node_modules/.e2e-install.json'));
	log(`installing n8n into test/e2e/n8n-v2 (shared with npm test): npm ci of ~1000 packages, then a build of sqlite3; ${lastInstallTime(markers)}`);
	const started = Date.now();
	const timer = setInterval(() => log(`still installing n8n... ${Math.round((Date.now() - started) / 1000)} s`), intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}

module.exports = { announceInstall, USUAL };

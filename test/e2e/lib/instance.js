'use strict';
// One throw-away n8n installation ("instance") per test: its own N8N_USER_FOLDER with a SQLite
// database, this repository's package installed into $N8N_USER_FOLDER/.n8n/nodes the way n8n installs
// a community package, and helpers that drive the real n8n CLI (import, execute) and server (REST).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureN8n } = require('./install');
const { npmEnv } = require('./npm-install');
const { createRestClient } = require('./rest');
const util = require('./util');

const { E2E_DIR, REPO_ROOT, defaultLog } = util;
const TEMPLATES_DIR = path.join(E2E_DIR, '.cache', 'templates');

const ENCRYPTION_KEY = 'n8n-nodes-verification-services-e2e-key';

// The instances live OUTSIDE the repository on purpose: Node resolves `require('n8n-workflow')` from
// the installed package by walking up its real path first and only then NODE_PATH (which n8n sets to
// its own node_modules). Under /work/main that walk finds the repo's devDependency n8n-workflow
// (a different copy, and for n8n 1.x the wrong major), which a real installation never sees.
// `npm test` gives every run a new folder (N8N_E2E_WORK_DIR); a suite run alone uses one per clone.
function workRoot() {
	if (process.env.N8N_E2E_WORK_DIR) return path.resolve(process.env.N8N_E2E_WORK_DIR);
	return path.join(os.tmpdir(), `n8n-nodes-verification-services-e2e-${util.sha256(REPO_ROOT).slice(0, 8)}`);
}

function ensureWorkRoot() {
	const root = workRoot();
	fs.mkdirSync(root, { recursive: true });
	const real = fs.realpathSync(root);
	if (real === REPO_ROOT || real.startsWith(REPO_ROOT + path.sep)) {
		throw new Error(
			`N8N_E2E_WORK_DIR (${real}) is inside the repository: the installed package would resolve the repo's ` +
				'node_modules/n8n-workflow instead of n8n\'s own copy. Use a folder outside it.',
		);
	}
	return root;
}

// ---------------------------------------------------------------------------------------------
// Packing and describing the package under test

let packed = null;

/**
 * Which files the package's `n8n` section lists, and which of them exist in `dir` (a source checkout
 * or an installed copy).
 * @returns {{ name: string, version: string, nodes: {file: string, exists: boolean}[],
 *   credentials: {file: string, exists: boolean}[], missing: string[], complete: boolean }}
 */
function packageManifest(dir = REPO_ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const list = (arr) => (arr ?? []).map((file) => ({ file, exists: fs.existsSync(path.join(dir, file)) }));
	const nodes = list(pkg.n8n?.nodes);
	const credentials = list(pkg.n8n?.credentials);
	const missing = [...nodes, ...credentials].filter((f) => !f.exists).map((f) => f.file);
	return { name: pkg.name, version: pkg.version, nodes, credentials, missing, complete: missing.length === 0 };
}

/** A hash of what `npm pack` puts in the tarball: package.json, README, LICENSE and dist/. */
function buildHash(packageDir) {
	const files = ['package.json', 'README.md', 'LICENSE'].map((f) => path.join(packageDir, f)).filter((f) => fs.existsSync(f));
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else files.push(full);
		}
	};
	if (fs.existsSync(path.join(packageDir, 'dist'))) walk(path.join(packageDir, 'dist'));
	return util.sha256(...files.flatMap((f) => [path.relative(packageDir, f), fs.readFileSync(f)]));
}

/**
 * Builds (when dist/ is missing), packs the package with `npm pack` and installs the tarball into a
 * nodes folder the way n8n installs a community package: no install scripts, no lockfile, and no peer
 * dependencies (n8n-workflow is provided by n8n itself, through NODE_PATH). Done once per build for the
 * whole run (shared by every suite's process, under a lock) and copied into each instance: the
 * installed files are the same, and the two npm boots are not paid again for each n8n.
 * A failing build is reported, not thrown: the tarball then holds whatever dist/ has, and the
 * tests that need the package's nodes skip themselves (see packageManifest()).
 * @returns {Promise<{ nodesDir: string, buildError?: string }>}
 */
async function installedPackage({ log }) {
	// N8N_E2E_PACKAGE_DIR: another built checkout of this package (the bench compares old and new code).
	const packageDir = process.env.N8N_E2E_PACKAGE_DIR ? path.resolve(process.env.N8N_E2E_PACKAGE_DIR) : REPO_ROOT;
	packed ??= (async () => {
		let buildError;
		if (!fs.existsSync(path.join(packageDir, 'dist'))) {
			log(`dist/ missing in ${packageDir}: npm run build`);
			const res = await util.run('npm', ['run', 'build'], { cwd: packageDir, env: npmEnv(), timeoutMs: 10 * 60 * 1000 });
			if (res.code !== 0) {
				buildError = `npm run build failed (exit ${res.code}):\n${(res.stdout + res.stderr).split('\n').slice(-30).join('\n')}`;
				log(buildError);
			}
		}
		const manifest = packageManifest(packageDir);
		if (!manifest.complete) {
			log(`package.json n8n section lists files missing from ${packageDir}: ${manifest.missing.join(', ')}`);
		}
		const dir = path.join(ensureWorkRoot(), 'packs', util.sha256(packageDir, buildHash(packageDir)).slice(0, 16));
		const nodesDir = path.join(dir, 'nodes');
		const ready = path.join(dir, 'ready');
		fs.mkdirSync(path.dirname(dir), { recursive: true });
		await util.withLock(`${dir}.lock`, async () => {
			if (fs.existsSync(ready)) return;
			fs.rmSync(dir, { recursive: true, force: true });
			fs.mkdirSync(nodesDir, { recursive: true });
			const res = await util.runOrThrow('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: packageDir, env: npmEnv(), timeoutMs: 5 * 60 * 1000 });
			const tarball = path.join(dir, JSON.parse(res.stdout.slice(res.stdout.indexOf('[')))[0].filename);
			fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
			await util.runOrThrow(
				'npm',
				['install', tarball, '--ignore-scripts', '--legacy-peer-deps', '--omit=dev', '--omit=peer', '--no-audit', '--no-fund', '--bin-links=false', '--package-lock=false', '--install-strategy=shallow', '--prefer-offline', '--loglevel=error'],
				{ cwd: nodesDir, env: npmEnv(), timeoutMs: 5 * 60 * 1000 },
			);
			if (fs.existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow'))) throw new Error('npm installed n8n-workflow next to the package: n8n must provide it');
			fs.writeFileSync(ready, new Date().toISOString());
		});
		return { nodesDir, buildError };
	})();
	try {
		return await packed;
	} catch (error) {
		packed = null;
		throw error;
	}
}

// ---------------------------------------------------------------------------------------------
// Parsing `n8n execute --rawOutput`

/**
 * Extracts the execution JSON from n8n's stdout: it starts at the first line that begins with `{`
 * (warnings and log lines come first) and ends on that line or at the first later line that is
 * exactly `}` (pretty-printed, only the top-level brace sits in column 0; log lines may follow it).
 * @returns {object|null}
 */
function parseExecuteOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.startsWith('{'));
	if (start === -1) return null;
	for (let end = start; end < lines.length; end++) {
		if (end === start ? lines[end].trimEnd().endsWith('}') : lines[end].trimEnd() === '}') {
			try {
				return JSON.parse(lines.slice(start, end + 1).join('\n'));
			} catch {
				/* keep looking */
			}
		}
	}
	return null;
}

/**
 * The items a node produced in an execution result (from instance.execute() or a REST execution).
 * @param {object} result  what execute() returned, or an IRun-like object with data.resultData.runData
 * @param {string} nodeName
 * @param {{ output?: number, run?: number, json?: boolean }} [opts]  json:false returns the whole items
 * @returns {object[]|undefined}  undefined when the node did not run
 */
function nodeOutput(result, nodeName, { output = 0, run = 0, json = true } = {}) {
	const runData = result?.runData ?? result?.resultData?.runData ?? result?.data?.resultData?.runData;
	const items = runData?.[nodeName]?.[run]?.data?.main?.[output];
	if (!items) return undefined;
	return json ? items.map((i) => i.json) : items;
}

/** The error a node's run recorded (as stored in runData), if any. */
function nodeError(result, nodeName, { run = 0 } = {}) {
	const runData = result?.runData ?? result?.resultData?.runData ?? result?.data?.resultData?.runData;
	return runData?.[nodeName]?.[run]?.error;
}

/** n8n's words when its port or its task broker's is bound already. */
const PORT_TAKEN = /port \d+ is already in use/;

// Lines n8n prints on every run that are not about the workflow.
const LOG_NOISE = [/Python task runner/i, /license SDK/i, /Task Broker ready/i, /deprecat/i, /^=+$/];

/**
 * The message of an error that n8n only logged (no execution JSON): the first line after
 * "Execution error:" (the execute command's own format), else the log lines that mention an error.
 */
function errorFromLog(text) {
	const lines = text.split('\n').map((l) => l.trim());
	const at = lines.findIndex((l) => /^Execution error:?$/i.test(l));
	if (at !== -1) {
		const msg = lines.slice(at + 1).find((l) => l && !/^=+$/.test(l));
		if (msg) return msg;
	}
	const relevant = lines.filter((l) => l && /error|unrecognized|not found|does not exist|failed/i.test(l) && !LOG_NOISE.some((re) => re.test(l)));
	return relevant.slice(0, 5).join('\n');
}

// ---------------------------------------------------------------------------------------------
// A migrated, empty database per n8n version: the first n8n command on a fresh SQLite file runs
// every migration (~5 s), so new instances start from a copy of one made once per clone (kept in
// test/e2e/.cache/ with the install's other leftovers).

const DB_FILES = ['database.sqlite', 'database.sqlite-wal', 'database.sqlite-shm', 'config'];

async function dbTemplate(runtime, env, log) {
	const key = `${runtime.version}-${runtime.n8nVersion}-${String(runtime.marker?.lockHash ?? 'nolock').slice(0, 12)}`;
	const dir = path.join(TEMPLATES_DIR, key);
	const ready = path.join(dir, 'ready');
	if (fs.existsSync(ready)) return dir;
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	return await util.withLock(`${dir}.lock`, async () => {
		if (fs.existsSync(ready)) return dir;
		const t0 = Date.now();
		const scratch = `${dir}.tmp-${process.pid}`;
		fs.rmSync(scratch, { recursive: true, force: true });
		fs.mkdirSync(path.join(scratch, '.n8n'), { recursive: true });
		const input = path.join(scratch, 'empty.json');
		fs.writeFileSync(input, '[]');
		const res = await util.run(runtime.nodeBin, [runtime.n8nBin, 'import:credentials', `--input=${input}`], {
			cwd: scratch,
			env: { ...env, HOME: scratch, N8N_USER_FOLDER: scratch, N8N_RUNNERS_BROKER_PORT: String(await util.freePort()) },
			timeoutMs: 5 * 60 * 1000,
		});
		if (res.code !== 0 || !fs.existsSync(path.join(scratch, '.n8n', 'database.sqlite'))) {
			fs.rmSync(scratch, { recursive: true, force: true });
			throw new Error(`[${runtime.version}] could not create the database template (exit ${res.code}):\n${res.stdout.slice(-2000)}\n${res.stderr.slice(-2000)}`);
		}
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		for (const f of DB_FILES) {
			const from = path.join(scratch, '.n8n', f);
			if (fs.existsSync(from)) fs.copyFileSync(from, path.join(dir, f));
		}
		fs.writeFileSync(ready, new Date().toISOString());
		fs.rmSync(scratch, { recursive: true, force: true });
		log(`${runtime.version}: migrated database template made in ${Math.round((Date.now() - t0) / 1000)} s`);
		return dir;
	});
}

let idCounter = 0;
function newId(prefix = 'e2e') {
	// n8n ids are 16-char strings of [A-Za-z0-9].
	const base = `${prefix}${Date.now().toString(36)}${(idCounter++).toString(36)}${Math.random().toString(36).slice(2)}`;
	return base.replace(/[^A-Za-z0-9]/g, '').padEnd(16, '0').slice(0, 16);
}

class Instance {
	constructor({ version, userFolder, runtime, env }) {
		Object.assign(this, { version, userFolder, runtime, env, package: null, servers: new Set() });
		this.n8nFolder = path.join(userFolder, '.n8n');
		this.nodesDir = path.join(this.n8nFolder, 'nodes');
	}

	/** Environment for one n8n process: the instance's env plus a free task-broker port. */
	async processEnv(extra = {}) {
		const brokerPort = await util.freePort();
		return { ...this.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...extra };
	}

	/**
	 * Runs `n8n <args>` for this instance and returns { code, signal, stdout, stderr, durationMs, timedOut }.
	 */
	async n8n(args, { timeoutMs = 3 * 60 * 1000, env = {} } = {}) {
		return await util.run(this.runtime.nodeBin, [this.runtime.n8nBin, ...args], {
			cwd: this.userFolder,
			env: await this.processEnv(env),
			timeoutMs,
		});
	}

	async n8nOrThrow(args, opts) {
		const res = await this.n8n(args, opts);
		if (res.code !== 0 || res.timedOut) {
			const tail = (s) => s.split('\n').slice(-40).join('\n');
			const error = new Error(
				`[${this.version}] n8n ${args.join(' ')} ${res.timedOut ? 'timed out' : `exited with ${res.code ?? res.signal}`}\n` +
					`--- stdout ---\n${tail(res.stdout)}\n--- stderr ---\n${tail(res.stderr)}`,
			);
			error.result = res;
			throw error;
		}
		return res;
	}

	/** Runs `n8n import:<what> --input=<a file of list>`; throws unless n8n reports them all imported. */
	async import(what, list) {
		const dir = path.join(this.userFolder, 'inputs');
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, `${what}-${Date.now()}-${idCounter++}.json`);
		fs.writeFileSync(file, JSON.stringify(list, null, 2));
		const res = await this.n8nOrThrow([`import:${what}`, `--input=${file}`]);
		const out = res.stdout + res.stderr;
		if (!/Successfully imported/.test(out) || /Skipped workflow/.test(out)) {
			throw new Error(`[${this.version}] import:${what} did not import everything:\n${res.stdout}\n${res.stderr}`);
		}
	}

	/**
	 * Imports credentials with `n8n import:credentials --input=<file>`. Each needs `name`, `type` and
	 * `data` as a PLAIN object: n8n 1.123 and 2.40 both encrypt an object `data` on import (with the
	 * instance's N8N_ENCRYPTION_KEY); an `id` is generated when missing.
	 * @param {{id?: string, name: string, type: string, data: object}[]} credentials
	 * @returns {Promise<string[]>} the credential ids
	 */
	async importCredentials(credentials) {
		const list = credentials.map((c) => ({ id: c.id ?? newId('cred'), ...c }));
		for (const c of list) {
			if (!c.name || !c.type || typeof c.data !== 'object') throw new Error(`credential needs name, type and a data object: ${JSON.stringify(c)}`);
		}
		await this.import('credentials', list);
		return list.map((c) => c.id);
	}

	/**
	 * Imports workflows with `n8n import:workflow --input=<file>` (they are imported inactive).
	 * An `id` is generated when missing; `active` is forced to false.
	 * @param {object[]} workflows  n8n workflow JSON objects ({ name, nodes, connections, ... })
	 * @returns {Promise<string[]>} the workflow ids
	 */
	async importWorkflows(workflows) {
		const list = workflows.map((w) => ({ settings: { executionOrder: 'v1' }, ...w, id: w.id ?? newId('wf'), active: false }));
		await this.import('workflow', list);
		return list.map((w) => w.id);
	}

	/**
	 * Runs a workflow once with `n8n execute --id <id> --rawOutput` (it starts at the workflow's
	 * trigger/start node, in "cli" mode) and parses the execution JSON.
	 * @returns {Promise<{ ok: boolean, exitCode: number|null, signal: string|null, exitCrash: string|null,
	 *   execution: object|null, runData: object|undefined, error: object|undefined, errorMessage: string|undefined,
	 *   lastNodeExecuted: string|undefined, stdout: string, stderr: string, durationMs: number }>}
	 *   `ok`: the JSON was printed and holds no error. `error` is resultData.error, or (when n8n failed
	 *   before running, e.g. "Unrecognized node type") an object with the message n8n logged.
	 *   `exitCrash` is set when n8n crashed AFTER printing a complete result (n8n 2.40.7 on Node 24
	 *   sometimes segfaults in isolated-vm teardown at process exit; see README).
	 */
	async execute(workflowId, { timeoutMs = 3 * 60 * 1000, env } = {}) {
		const res = await this.n8n(['execute', `--id=${workflowId}`, '--rawOutput'], { timeoutMs, env });
		const execution = parseExecuteOutput(res.stdout);
		const resultData = execution?.data?.resultData;
		let error = resultData?.error;
		let errorMessage = error?.message;
		if (!execution) {
			errorMessage = errorFromLog(res.stdout + '\n' + res.stderr) || `n8n exited with ${res.code ?? res.signal} and printed no execution`;
			error = { message: errorMessage };
		}
		const crashed = res.signal !== null || (res.code !== null && res.code > 128);
		const ok = Boolean(execution) && !error && !res.timedOut && (res.code === 0 || crashed);
		return {
			ok,
			exitCode: res.code,
			signal: res.signal,
			exitCrash: execution && crashed ? (res.signal ?? `exit ${res.code}`) : null,
			execution,
			runData: resultData?.runData,
			error,
			errorMessage,
			lastNodeExecuted: resultData?.lastNodeExecuted,
			stdout: res.stdout,
			stderr: res.stderr,
			durationMs: res.durationMs,
		};
	}

	/**
	 * Starts `n8n start` on a free loopback port and waits for /healthz (and the REST API) to answer.
	 * A port another process bound before n8n did (seconds after it starts) is a lost race, not a
	 * failure: n8n starts again, on a new port unless the caller named one.
	 * @param {{ port?: number, timeoutMs?: number, env?: object }} [opts]
	 * @returns {Promise<Server>} the server's REST client (lib/rest.js) with its url, port, logFile, stop() and readLog()
	 */
	async startServer({ port, timeoutMs = 120000, env = {} } = {}) {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.launchServer({ port: port ?? (await util.freePort()), timeoutMs, env });
			} catch (error) {
				if (!error.portTaken || attempt === 3) throw error;
				await util.sleep(500);
			}
		}
	}

	/** The file `n8n start` on `port` logs to (appended to by a restart on the same port). */
	serverLogFile(port) {
		return path.join(this.userFolder, `server-${port}.log`);
	}

	async launchServer({ port, timeoutMs, env }) {
		const url = `http://127.0.0.1:${port}`;
		const procEnv = await this.processEnv({
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `${url}/`,
			// Production webhooks on this server: 2.x names WEBHOOK_URL deprecated for N8N_WEBHOOK_URL, 1.x knows only WEBHOOK_URL.
			WEBHOOK_URL: `${url}/`,
			N8N_WEBHOOK_URL: `${url}/`,
			// 2.x publishes (activates) workflows through an outbox polled every 15 s by default.
			N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '250',
			...env,
		});
		const logFile = this.serverLogFile(port);
		const logFd = fs.openSync(logFile, 'a');
		const started = Date.now();
		const child = util.spawnTracked(this.runtime.nodeBin, [this.runtime.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: procEnv,
			stdio: ['ignore', logFd, logFd],
		});
		fs.closeSync(logFd);
		let exited = null;
		const exitPromise = new Promise((resolve) => {
			child.once('exit', (code, signal) => {
				exited = { code, signal };
				resolve(exited);
			});
		});

		const stop = async ({ timeoutMs: stopTimeout = 20000 } = {}) => {
			if (!exited) {
				util.killGroup(child, 'SIGTERM');
				const t = setTimeout(() => util.killGroup(child, 'SIGKILL'), stopTimeout);
				await exitPromise;
				clearTimeout(t);
			}
			// Anything still in the group (task runner) goes too.
			util.killGroup(child, 'SIGKILL');
			this.servers.delete(server);
		};

		const readLog = () => {
			try {
				return fs.readFileSync(logFile, 'utf8');
			} catch {
				return '';
			}
		};

		const rest = createRestClient({ baseUrl: url, version: this.version, runtimeDir: this.runtime.dir });
		const server = Object.assign(rest, { url, port, pid: child.pid, logFile, stop, readLog, process: child });
		this.servers.add(server);

		try {
			await util.waitUntil('n8n start to become ready', async () => {
				if (exited) throw new Error(`n8n start exited early (${exited.code ?? exited.signal})`);
				try {
					const res = await util.freshFetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
					return res.ok && (await util.freshFetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(5000) })).ok;
				} catch {
					return false; // not up yet
				}
			}, { timeoutMs, intervalMs: 300 });
		} catch (error) {
			await stop();
			error.portTaken = PORT_TAKEN.test(readLog());
			error.message += `\nn8n server log ${logFile} ends:\n${readLog().trimEnd().split('\n').slice(-8).join('\n')}`;
			throw error;
		}
		server.startupMs = Date.now() - started;
		return server;
	}

	/** Stops every server this instance started. */
	async stop() {
		await Promise.all([...this.servers].map((s) => s.stop()));
	}

	/** Stops everything and deletes the user folder (unless N8N_E2E_KEEP=1). */
	async destroy() {
		await this.stop();
		if (!process.env.N8N_E2E_KEEP) fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/**
 * Inside the repository, the installed package's require('n8n-workflow') would walk up to the repo's
 * devDependency copy. A link in <userFolder>/node_modules to n8n's own copy is found first, so the
 * package sees exactly what a real installation sees.
 */
function linkN8nWorkflow(userFolder, runtime) {
	const own = path.dirname(require.resolve('n8n-workflow/package.json', { paths: [path.dirname(runtime.n8nBin)] }));
	const link = path.join(userFolder, 'node_modules', 'n8n-workflow');
	fs.mkdirSync(path.dirname(link), { recursive: true });
	fs.rmSync(link, { recursive: true, force: true });
	fs.symlinkSync(own, link, 'dir');
}

/**
 * Creates a fresh n8n instance of `version` with this repository's package installed.
 * @param {'v1'|'v2'} version
 * @param {{ name?: string, env?: object, log?: (msg: string) => void, keepExisting?: boolean,
 *   useDbTemplate?: boolean, userFolder?: string }} [options]
 *   name: folder name (<name>-<version>); env: extra/overriding env for every n8n call;
 *   keepExisting: reuse the folder's database instead of starting empty;
 *   useDbTemplate: start from a copy of an already migrated empty database (default; saves the ~5 s
 *   of migrations on the first command; N8N_E2E_NO_DB_TEMPLATE=1 turns it off);
 *   userFolder: an explicit N8N_USER_FOLDER instead of <work root>/<name>-<version> (npm start keeps
 *   its state in the repo's .n8n-local/; see linkN8nWorkflow for why that needs a link).
 * @returns {Promise<Instance>}
 */
async function createInstance(
	version,
	{ name = 'default', env = {}, log = defaultLog, keepExisting = false, useDbTemplate = true, userFolder: explicitFolder } = {},
) {
	const runtime = await ensureN8n(version, { log });
	const userFolder = explicitFolder ? path.resolve(explicitFolder) : path.join(ensureWorkRoot(), `${name}-${version}`);
	if (!keepExisting) fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
	if (explicitFolder) linkN8nWorkflow(userFolder, runtime);

	const baseEnv = {};
	// Keep the system basics, drop anything n8n-, npm- or Node-option-related from the caller.
	for (const [k, v] of Object.entries(process.env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_|NODES_|GENERIC_|CREDENTIALS_|npm_|NODE_OPTIONS$|NODE_PATH$|NODE_TEST_CONTEXT$)/i.test(k)) continue;
		baseEnv[k] = v;
	}
	const instanceEnv = {
		...baseEnv,
		HOME: userFolder,
		N8N_USER_FOLDER: userFolder,
		DB_TYPE: 'sqlite',
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_LOG_LEVEL: 'info', // with warn/error the --rawOutput JSON is never printed (it is logged at info)
		N8N_LOG_OUTPUT: 'console',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_GIT_NODE_DISABLE_BARE_REPOS: 'true',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		// n8n 2.x pings its database every 2 s and answers every request 503 "Database is not ready!" after
		// one ping slower than 5 s: under npm test's load on two cores pings timed out, and a suite failed
		// on the 503s. Slow is not down here.
		DB_PING_TIMEOUT_MS: '60000',
		...runtime.env,
		...env,
	};
	if (!keepExisting && useDbTemplate && !process.env.N8N_E2E_NO_DB_TEMPLATE) {
		const template = await dbTemplate(runtime, instanceEnv, log);
		for (const f of DB_FILES) {
			const from = path.join(template, f);
			if (fs.existsSync(from)) fs.copyFileSync(from, path.join(userFolder, '.n8n', f));
		}
	}
	const instance = new Instance({ version, userFolder, runtime, env: instanceEnv });

	const { nodesDir, buildError } = await installedPackage({ log });
	fs.cpSync(nodesDir, instance.nodesDir, { recursive: true });
	instance.package = { buildError };
	return instance;
}

module.exports = { createInstance, packageManifest, parseExecuteOutput, nodeOutput, nodeError, newId, ensureWorkRoot };

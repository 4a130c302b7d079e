'use strict';
// Process and file helpers shared by install.js and instance.js.
// Every child process is spawned in its own process group and remembered, so that a crash, a
// timeout or a Ctrl-C of the test run still ends it (and everything it started) by group id.

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const E2E_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(E2E_DIR, '..', '..');

/** @type {Set<import('node:child_process').ChildProcess>} */
const liveChildren = new Set();
let exitHooksInstalled = false;

function killGroup(child, signal = 'SIGTERM') {
	if (!child || child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

// A program with its own orderly shutdown (npm start) sets this before spawning anything: the signal
// hooks then leave the children to it, and only the exit hook still kills what is left.
let signalHooksEnabled = true;
function disableSignalHooks() {
	signalHooksEnabled = false;
}

function installExitHooks() {
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	process.on('exit', () => {
		for (const child of liveChildren) killGroup(child, 'SIGKILL');
	});
	if (!signalHooksEnabled) return;
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.once(sig, () => {
			for (const child of liveChildren) killGroup(child, 'SIGKILL');
			process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
		});
	}
}

/**
 * Spawns a command in its own process group, tracked for cleanup.
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnTracked(cmd, args, opts = {}) {
	installExitHooks();
	const child = spawn(cmd, args, { ...opts, detached: true, stdio: opts.stdio ?? ['ignore', 'pipe', 'pipe'] });
	liveChildren.add(child);
	child.once('exit', () => liveChildren.delete(child));
	child.once('error', () => liveChildren.delete(child));
	return child;
}

/**
 * Runs a command to completion and collects its output.
 * Resolves (never rejects on a non-zero exit) with { code, signal, stdout, stderr, durationMs, timedOut, stalled }.
 * After timeoutMs, or after idleTimeoutMs without a byte of output (`stalled`), the whole process group
 * is killed (SIGTERM, then SIGKILL after 5 s).
 */
function run(cmd, args, { cwd, env, timeoutMs = 10 * 60 * 1000, idleTimeoutMs } = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		let child;
		try {
			child = spawnTracked(cmd, args, { cwd, env });
		} catch (error) {
			reject(error);
			return;
		}
		let timedOut = false;
		let stalled = false;
		let killTimer;
		let idleTimer;
		const end = () => {
			if (killTimer) return;
			killGroup(child, 'SIGTERM');
			killTimer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
		};
		const timer = setTimeout(() => {
			timedOut = true;
			end();
		}, timeoutMs);
		const active = () => {
			if (!idleTimeoutMs) return;
			clearTimeout(idleTimer);
			idleTimer = setTimeout(() => {
				stalled = true;
				end();
			}, idleTimeoutMs);
		};
		active();
		const out = [];
		const err = [];
		child.stdout.on('data', (d) => {
			out.push(d);
			active();
		});
		child.stderr.on('data', (d) => {
			err.push(d);
			active();
		});
		const clearTimers = () => {
			clearTimeout(timer);
			clearTimeout(idleTimer);
			clearTimeout(killTimer);
		};
		child.once('error', (error) => {
			clearTimers();
			reject(error);
		});
		child.once('close', (code, signal) => {
			clearTimers();
			// The command is done; make sure nothing it left behind in its group survives it.
			killGroup(child, 'SIGKILL');
			resolve({
				code,
				signal,
				stdout: Buffer.concat(out).toString(),
				stderr: Buffer.concat(err).toString(),
				durationMs: Date.now() - started,
				timedOut,
				stalled,
			});
		});
	});
}

/** "timed out", "printed nothing for 240 s" or "exited with 1": how a run that failed ended. */
function howItEnded(res, { idleTimeoutMs } = {}) {
	if (res.stalled) return `printed nothing for ${Math.round(idleTimeoutMs / 1000)} s`;
	if (res.timedOut) return 'timed out';
	return `exited with ${res.code ?? res.signal}`;
}

/** Like run() but throws with the command's output when it exits non-zero or times out. */
async function runOrThrow(cmd, args, opts = {}) {
	const res = await run(cmd, args, opts);
	if (res.code !== 0 || res.timedOut || res.stalled) {
		const what = [cmd, ...args].join(' ');
		const tail = (s) => s.split('\n').slice(-40).join('\n');
		const error = new Error(
			`${what} ${howItEnded(res, opts)} (cwd ${opts.cwd ?? process.cwd()})\n` +
				`--- stdout (tail) ---\n${tail(res.stdout)}\n--- stderr (tail) ---\n${tail(res.stderr)}`,
		);
		error.result = res;
		throw error;
	}
	return res;
}

/** Asks the kernel for a free TCP port on the loopback interface. */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** A response text as JSON when it parses, else the text itself. */
function jsonOrText(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function sha256(...parts) {
	const h = crypto.createHash('sha256');
	for (const p of parts) h.update(p);
	return h.digest('hex');
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

/**
 * fetch() over a new connection, closed after the answer. A kept-alive connection breaks when the
 * server's event loop is blocked for longer than its keep-alive timeout (Node's default 5 s; n8n sets
 * none) while a request waits on it: Node 20 (n8n 1.x) runs the expired idle timer before it reads the
 * waiting request and closes the socket under it ("other side closed", ECONNRESET). A busy n8n taking
 * in a 5 MB body blocks that long.
 */
function freshFetch(url, init = {}) {
	return fetch(url, { signal: AbortSignal.timeout(120000), ...init, headers: { ...init.headers, connection: 'close' } });
}

/** One call of the emulator's control API (`/__control/...` at `emulatorUrl`): { status, body } (JSON when it parses). */
async function emulatorCall(emulatorUrl, method, controlPath, body) {
	const res = await freshFetch(`${emulatorUrl}/__control/${controlPath}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: jsonOrText(await res.text()) };
}

/** emulatorCall's answer body; anything but 200 throws, naming the call. */
async function emulatorControl(emulatorUrl, method, controlPath, body) {
	const res = await emulatorCall(emulatorUrl, method, controlPath, body);
	if (res.status !== 200) throw new Error(`${method} /__control/${controlPath} answered ${res.status}`);
	return res.body;
}

/** The requests the emulator received on `route` ('POST /payments/challenge-deposit'), oldest first. */
const emulatorRequests = async (emulatorUrl, route) => await emulatorControl(emulatorUrl, 'GET', `requests?route=${encodeURIComponent(route)}`);

/**
 * A cross-process lock (mkdir is atomic). Waits while another live process holds it; takes over a
 * lock whose holder is dead.
 */
async function withLock(lockDir, fn, { log = () => {} } = {}) {
	const started = Date.now();
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let holder = NaN;
			try {
				holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {
				/* being written */
			}
			let alive = true;
			if (Number.isInteger(holder) && holder > 0) {
				try {
					process.kill(holder, 0);
				} catch {
					alive = false;
				}
			} else if (Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 60_000) {
				alive = false;
			}
			if (!alive) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) {
				log(`waiting for lock ${lockDir} held by pid ${holder}`);
				announced = true;
			}
			if (Date.now() - started > 30 * 60 * 1000) throw new Error(`timed out waiting for lock ${lockDir}`);
			await sleep(1000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** Polls `check` (async, returns a truthy value when done) until it succeeds or `timeoutMs` passes. */
async function waitUntil(what, check, { timeoutMs = 60000, intervalMs = 250 } = {}) {
	const started = Date.now();
	let last;
	for (;;) {
		last = await check();
		if (last) return last;
		if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/** The n8n versions a run selects: N8N_E2E_VERSIONS=v2 (or v1) limits it to one. */
const e2eVersions = () => (process.env.N8N_E2E_VERSIONS || 'v2,v1').split(',').map((v) => v.trim()).filter(Boolean);

function defaultLog(msg) {
	if (process.env.N8N_E2E_QUIET) return;
	process.stderr.write(`[e2e] ${msg}\n`);
}

module.exports = {
	jsonOrText,
	E2E_DIR,
	REPO_ROOT,
	spawnTracked,
	killGroup,
	run,
	runOrThrow,
	howItEnded,
	freePort,
	sha256,
	sleep,
	waitUntil,
	e2eVersions,
	freshFetch,
	emulatorCall,
	emulatorControl,
	emulatorRequests,
	withLock,
	defaultLog,
	liveChildren,
	disableSignalHooks,
};

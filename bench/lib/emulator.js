'use strict';
// The sandbox emulator in its own child process (its CPU work must not share an event loop with the
// client being measured), on a free loopback port, plus thin wrappers around its /__control API.

const { spawn } = require('node:child_process');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require(path.join(REPO_ROOT, 'sandbox', 'constants'));
const { emulatorControl } = require(path.join(REPO_ROOT, 'test', 'e2e', 'lib', 'util'));
const { KINDS } = require(path.join(REPO_ROOT, 'sandbox', 'rate-limiters'));

/**
 * Starts `node sandbox/server.js --port 0` and waits for its "listening on" line.
 * @returns {Promise<{ pid: number, url: string, baseUrl: string, control: object, stop(): Promise<void> }>}
 */
function startEmulator({ timeoutMs = 15000 } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(REPO_ROOT, 'sandbox', 'server.js'), '--port', '0', '--host', '127.0.0.1'], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		let err = '';
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`emulator did not start within ${timeoutMs} ms\n${out}\n${err}`));
		}, timeoutMs);
		child.stderr.on('data', (d) => {
			err += d;
		});
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			reject(new Error(`emulator exited (${code ?? signal}) before it listened\n${out}\n${err}`));
		});
		child.stdout.on('data', (d) => {
			out += d;
			const m = /listening on (http:\/\/[^\s]+)/.exec(out);
			if (!m) return;
			clearTimeout(timer);
			child.removeAllListeners('exit');
			const baseUrl = m[1];
			const url = new URL(baseUrl).origin;
			const exited = new Promise((done) => child.once('exit', done));
			resolve({
				pid: child.pid,
				url,
				baseUrl,
				control: controlClient(url),
				async stop() {
					if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
					const t = setTimeout(() => child.kill('SIGKILL'), 5000);
					await exited;
					clearTimeout(t);
				},
			});
		});
	});
}

/**
 * How the emulator counts the quota (sandbox/rate-limiters.js), from BENCH_LIMITER: sliding (default),
 * fixed or bucket, with `-refused` when refused requests count as well (sliding-refused, bucket-refused).
 */
function limiterKind(name = process.env.BENCH_LIMITER || 'sliding') {
	const [kind, refused, ...rest] = name.split('-');
	if (!KINDS.includes(kind) || (refused !== undefined && refused !== 'refused') || rest.length) {
		throw new Error(`BENCH_LIMITER must be one of ${KINDS.join(', ')}, with -refused or not; got ${name}`);
	}
	return { kind, countRefused: refused === 'refused' };
}

function controlClient(origin) {
	const call = (method, route, body) => emulatorControl(origin, method, route, body);
	return {
		config: (patch) => call('POST', 'config', patch),
		stats: () => call('GET', 'stats'),
		requests: (route) => call('GET', `requests?route=${encodeURIComponent(route)}`),
		/** Reset counters and log, then apply this scenario's latency and rate limit. */
		async prepare({ latencyMs, rateLimit }) {
			await call('POST', 'reset', {});
			return await call('POST', 'config', { latencyMs, rateLimit: rateLimit ? { requestsPerSecond: rateLimit, ...limiterKind() } : null });
		},
	};
}

const AML_ROUTE = 'POST /aml/checkIndividual';

/**
 * What the emulator saw for one run of `names`: succeeded = distinct names answered 2xx, duplicated =
 * names answered 2xx more than once, lost = names never answered 2xx; /auth calls and 429s from stats.
 */
async function account(control, names) {
	const [stats, log] = await Promise.all([control.stats(), control.requests(AML_ROUTE)]);
	const ok = new Map();
	let firstAt = Infinity;
	for (const entry of log) {
		firstAt = Math.min(firstAt, Date.parse(entry.receivedAt));
		if (entry.status < 200 || entry.status >= 300) continue;
		const name = entry.body && typeof entry.body === 'object' ? entry.body.name : undefined;
		ok.set(name, (ok.get(name) ?? 0) + 1);
	}
	// A name listed k times (the review rows' person on the lists) is due k checks.
	const due = new Map();
	for (const name of names) due.set(name, (due.get(name) ?? 0) + 1);
	let succeeded = 0;
	let duplicated = 0;
	let extraRequests = 0;
	for (const [name, want] of due) {
		const n = ok.get(name) ?? 0;
		succeeded += Math.min(n, want);
		if (n > want) {
			duplicated++;
			extraRequests += n - want;
		}
	}
	return {
		succeeded,
		duplicated,
		duplicateRequests: extraRequests,
		lost: names.length - succeeded,
		amlRequests: stats.counts[AML_ROUTE] ?? 0,
		authCalls: stats.counts['POST /auth'] ?? 0,
		status429: stats.status['429'] ?? 0,
		status: stats.status,
		maxConcurrent: stats.maxConcurrent,
		/** When the first request of the run reached the emulator (epoch ms), or null. */
		firstRequestAt: Number.isFinite(firstAt) ? firstAt : null,
		logTruncated: log.length >= 20000,
	};
}

module.exports = { startEmulator, account, AML_ROUTE, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID };

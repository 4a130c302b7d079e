#!/usr/bin/env node
'use strict';
// npm test: every suite, in parallel where the cores allow, each to its own log; a line as each suite
// starts and ends; a failure named with its error and the command that reruns it; a summary.
// All suites run even when one fails (the exit status reports it). The run works in a new folder in the
// system temp dir, removed at the end unless a test failed.
// Usage: npm test [-- --only=e2e,browser] [-- --skip=browser,queue]   (e2e also selects e2e-v2-trigger, ...)

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { devDependenciesStale } = require('./ensure-deps');
const { ensureN8n, runtimeFor } = require('../test/e2e/lib/install');
const { installProgress } = require('./lib/install-progress');
const { missingSystemPackages } = require('./lib/system-packages');

const root = path.resolve(__dirname, '..');
const option = (name) =>
	process.argv
		.slice(2)
		.filter((a) => a.startsWith(`--${name}=`))
		.flatMap((a) => a.slice(name.length + 3).split(','))
		.map((s) => s.trim())
		.filter(Boolean);
const named = (suite, names) => names.some((n) => suite.name === n || suite.name.startsWith(`${n}-`));

const NODE_TEST = ['--test', '--test-concurrency=1', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${path.join(root, 'test', 'reporter.js')}`, '--test-reporter-destination=stdout'];
const nodeTest = (files) => ['node', ...NODE_TEST, ...files];
const LABEL = { v2: 'n8n 2.x', v1: 'n8n 1.x', next: 'newest n8n 2.x' };

/** The e2e files that need more than n8n (scripts/lib/system-packages.js). */
const E2E_SYSTEM = { 'screening-review': 'postgres' };
/**
 * An e2e file in one n8n version. Its n8n processes mostly wait (on n8n, the emulator, quiet periods):
 * one keeps about a third of a core busy, so several run at once.
 */
const e2e = (file, version, cpu = 0.5) => ({
	name: `e2e-${version}-${file}`,
	title: `${file} (${LABEL[version]})`,
	run: nodeTest([`test/e2e/${file}.e2e.test.js`]),
	env: { N8N_E2E_VERSIONS: version },
	needs: ['build', `n8n-${version}`],
	cpu,
	rerun: `N8N_E2E_VERSIONS=${version} node --test test/e2e/${file}.e2e.test.js`,
	system: E2E_SYSTEM[file],
});

/**
 * Every e2e file runs in both n8n versions, found in test/e2e/ so that a new file cannot be left out;
 * the queue and start files are suites of their own, and a file about what only n8n 2.x has (human
 * review of an AI agent's tool calls, a review form of Send and Wait) runs in the 2.x lane only. The longest known first, so the run ends sooner.
 */
const E2E_OWN_SUITE = ['queue', 'start'];
const E2E_V2_ONLY = ['agent-workflow-tool', 'screening-review'];
const E2E_LONGEST = ['customer-book', 'screening-review', 'trigger', 'webhook-trigger', 'trigger-acknowledge', 'agent-review', 'edges', 'resend', 'golden', 'operations', 'hosted-flows', 'onboarding-decision', 'agent'];
const E2E_FILES = fs
	.readdirSync(path.join(root, 'test', 'e2e'))
	.filter((f) => f.endsWith('.e2e.test.js'))
	.map((f) => f.slice(0, -'.e2e.test.js'.length))
	.filter((f) => !E2E_OWN_SUITE.includes(f))
	.sort((a, b) => (E2E_LONGEST.indexOf(a) + 1 || 99) - (E2E_LONGEST.indexOf(b) + 1 || 99) || a.localeCompare(b));
const inItsLanes = (file) => (E2E_V2_ONLY.includes(file) ? [e2e(file, 'v2')] : [e2e(file, 'v2'), e2e(file, 'v1')]);

// A fresh clone's dev dependencies install beside the n8n installs (which need only Node's own modules), not before them.
const DEPS = devDependenciesStale() ? [{ name: 'deps', title: 'install dev dependencies', run: ['node', 'scripts/ensure-deps.js'], cpu: 0 }] : [];
const afterDeps = DEPS.map((s) => s.name);

/**
 * The suites, the longest first. `needs`: what must have passed first; `cpu`: the share of the
 * machine it keeps busy (the scheduler keeps the sum within the core count); `rerun`: the command that
 * runs it alone (default: npm test -- --only=<name>).
 * The run is bound by the CPU: the checks nothing waits for that hold no deadline (unit tests do) run
 * niced (`yields`), beside everything, on what the n8n installs and then the e2e suites leave.
 */
const SUITES = [
	...['v2', 'v1'].map((v) => ({ name: `n8n-${v}`, title: `install ${LABEL[v]}`, install: v, cpu: 0 })),
	...DEPS,
	{ name: 'build', run: ['npm', 'run', 'build'], needs: afterDeps, cpu: 0 },
	{ name: 'lint', run: ['npm', 'run', 'lint'], needs: afterDeps, cpu: 0, yields: true },
	{ name: 'typecheck', run: ['npm', 'run', 'typecheck'], needs: afterDeps, cpu: 0, yields: true },
	{ name: 'unit', run: ['node', 'node_modules/.bin/jest', '--json', '--outputFile=RESULTS'], env: { NODE_OPTIONS: '--experimental-vm-modules' }, jest: true, needs: ['build'], cpu: 1, rerun: 'npm run test:unit' },
	{ name: 'verify', run: nodeTest(['test/verify/']), needs: ['build'], cpu: 0, yields: true, rerun: 'npm run test:verify' },
	...E2E_FILES.slice(0, 1).flatMap(inItsLanes),
	{ name: 'browser', run: nodeTest(['test/browser/']), needs: ['build', 'n8n-v2'], cpu: 0.5, system: 'browser', rerun: 'npm run test:browser' },
	{ name: 'queue', run: nodeTest(['test/e2e/queue.e2e.test.js']), needs: ['build', 'n8n-v2'], cpu: 0.5, system: 'queue', rerun: 'npm run test:queue' },
	e2e('start', 'v2'),
	...E2E_FILES.slice(1).flatMap(inItsLanes),
];

/**
 * `npm run test:next` (--only=next): the newest n8n 2.x that installs, on the suites that would fail
 * the day n8n changes what the package relies on (docs/compatibility.md): the golden workflows (the
 * `$json` shortcut of item-parameters.ts), human review of an AI agent's tool calls (human-review.ts)
 * and several accounts with the HTTP Request node (the credential's hooks). Not part of npm test,
 * which keeps to the pinned versions.
 */
const NEXT = [
	{ name: 'next-n8n', title: `install ${LABEL.next}`, install: 'next', cpu: 0 },
	...['golden', 'agent-review', 'several-accounts'].map((file) => ({ ...e2e(file, 'next'), name: `next-${file}`, needs: ['build', 'next-n8n'] })),
];

// What this run includes: --only picks suites (and what they need), --skip leaves suites out.
const only = option('only');
const wanted = new Set();
const want = (suite) => {
	if (wanted.has(suite)) return;
	wanted.add(suite);
	for (const need of suite.needs ?? []) want(ALL.find((s) => s.name === need));
};
const ALL = [...SUITES, ...NEXT];
for (const suite of ALL) if (only.length ? named(suite, only) : SUITES.includes(suite)) want(suite);
const RUN = ALL.filter((s) => wanted.has(s));
const skip = option('skip');

const started = Date.now();
const cores = os.cpus().length;
const load = () => os.loadavg()[0].toFixed(1);
const loadAtStart = load();
const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const say = (line) => process.stdout.write(`${line}\n`);
const title = (suite) => suite.title ?? suite.name;

const userWorkDir = process.env.N8N_E2E_WORK_DIR;
const workDir = userWorkDir ? path.resolve(userWorkDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-verification-services-test-'));
const logDir = path.join(workDir, 'logs');
fs.mkdirSync(logDir, { recursive: true });

// ---------------------------------------------------------------------------------------------
// Running one suite

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return null;
	}
}

const firstLines = (text, n = 12) => String(text).split('\n').slice(0, n).join('\n');

/** Counts and failures from jest's --json output. */
function jestResults(json) {
	if (!json) return null;
	const failures = json.testResults.flatMap((file) => {
		const where = path.relative(root, file.name);
		const rerun = `npm run test:unit -- ${where}`;
		const failed = file.assertionResults.filter((a) => a.status === 'failed').map((a) => ({ title: `${where}: ${a.fullName}`, error: firstLines(a.failureMessages.join('\n')), rerun }));
		return failed.length || file.status !== 'failed' ? failed : [{ title: `${where} did not run`, error: firstLines(file.message), rerun }];
	});
	return { counts: { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }, failures, skips: [] };
}

const children = new Set();

function runCommand(suite) {
	const base = path.join(logDir, suite.name);
	const [log, resultsFile] = [`${base}.log`, `${base}.json`];
	const [cmd, ...rest] = [...(suite.yields ? ['nice', '-n', '10'] : []), ...suite.run.map((a) => a.replace('RESULTS', resultsFile))];
	const out = fs.openSync(log, 'w');
	// N8N_E2E_KEEP: instance folders stay until the run's folder goes, so a failure's server log is there.
	const env = { ...process.env, N8N_E2E_WORK_DIR: workDir, N8N_E2E_KEEP: '1', TEST_RESULTS_FILE: resultsFile, ...suite.env };
	const child = spawn(cmd, rest, { cwd: root, env, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	children.add(child);
	return new Promise((resolve) => {
		child.on('error', (error) => resolve({ code: 1, log, results: { failures: [{ title: suite.run.join(' '), error: error.message }] } }));
		child.on('exit', (code, signal) => {
			children.delete(child);
			const json = readJson(resultsFile);
			resolve({ code: code ?? (signal ? 1 : 0), log, results: suite.jest ? jestResults(json) : json });
		});
	});
}

async function install(suite) {
	const version = suite.install;
	const log = path.join(logDir, `${suite.name}.log`);
	const stop = installProgress(version, { root, log: (line) => say(`  [${suite.name}] ${line}`) });
	try {
		const runtime = await ensureN8n(version, { log: (line) => fs.appendFileSync(log, `${line}\n`) });
		if (!runtime.installed) return { code: 0, log, note: 'already installed' };
		// A stalled install that was ended and retried is said here, not only in the suite's log.
		const attempts = runtime.marker.timings.packagesAttempts;
		return { code: 0, log, note: attempts > 1 ? `installed now, the packages took ${attempts} attempts: see ${log}` : 'installed now' };
	} catch (error) {
		fs.appendFileSync(log, `${error.stack ?? error}\n`);
		return { code: 1, log, results: { failures: [{ title: `installing n8n ${runtimeFor(version).n8nVersion}`, error: firstLines(error.message) }] } };
	} finally {
		stop();
	}
}

/** The failure in a few lines: each failing test, its error, and how to run it again. */
function describeFailure(suite, outcome, { errors = true } = {}) {
	const lines = [];
	const failures = outcome.results?.failures ?? [];
	for (const f of failures.slice(0, 5)) {
		lines.push(`    ✖ ${f.title}`);
		if (errors) lines.push(...firstLines(f.error, 6).split('\n').map((l) => `        ${l}`));
	}
	if (failures.length > 5) lines.push(`    ... and ${failures.length - 5} more (see the log)`);
	if (!failures.length && errors && fs.existsSync(outcome.log)) {
		lines.push(...fs.readFileSync(outcome.log, 'utf8').trimEnd().split('\n').slice(-12).map((l) => `    ${l}`));
	}
	const reruns = new Set(failures.map((f) => f.rerun).filter(Boolean));
	if (!reruns.size) reruns.add(suite.rerun ?? `npm test -- --only=${suite.name}`);
	lines.push(...[...reruns].map((r) => `    rerun: ${r}`), `    log:   ${outcome.log}`);
	return lines;
}

// ---------------------------------------------------------------------------------------------
// Scheduling: a suite starts when what it needs has passed and the cores have room for it.

const state = new Map(RUN.map((s) => [s.name, { status: named(s, skip) ? 'skipped' : 'waiting', reason: 'npm test -- --skip' }]));

function blockedBy(suite) {
	return (suite.needs ?? []).find((need) => ['failed', 'skipped'].includes(state.get(need).status));
}

function describeCounts(counts) {
	if (!counts) return '';
	return `${counts.passed} passed${counts.failed ? `, ${counts.failed} failed` : ''}${counts.skipped ? `, ${counts.skipped} skipped` : ''}`;
}

async function runAll() {
	let busy = 0;
	await new Promise((resolve) => {
		const schedule = () => {
			for (const suite of RUN) {
				const st = state.get(suite.name);
				if (st.status !== 'waiting') continue;
				const blocker = blockedBy(suite);
				if (blocker) {
					Object.assign(st, { status: 'skipped', reason: `${blocker} did not pass` });
					continue;
				}
				if ((suite.needs ?? []).some((n) => state.get(n).status !== 'passed')) continue;
				// In list order: a later, smaller suite does not take the room a longer one waits for.
				if (busy > 0 && busy + suite.cpu > cores) break;
				busy += suite.cpu;
				Object.assign(st, { status: 'running', started: Date.now() });
				say(`▶ ${title(suite)} (load ${load()})`);
				(suite.install ? install(suite) : runCommand(suite)).then((outcome) => {
					busy -= suite.cpu;
					Object.assign(st, outcome, { status: outcome.code === 0 ? 'passed' : 'failed', ms: Date.now() - st.started });
					const detail = describeCounts(outcome.results?.counts) || outcome.note || '';
					say(`${st.status === 'passed' ? '✔' : '✖'} ${title(suite)}: ${st.status}${detail ? `, ${detail}` : ''} in ${seconds(st.ms)} (load ${load()})`);
					if (st.status === 'failed') say(describeFailure(suite, st).join('\n'));
					schedule();
				});
			}
			if ([...state.values()].every((s) => s.status !== 'waiting' && s.status !== 'running')) resolve();
		};
		schedule();
	});
}

function summary() {
	const failed = RUN.filter((s) => state.get(s.name).status === 'failed');
	say(`\nnpm test summary (${cores} cores; load ${loadAtStart} at the start, ${load()} at the end)`);
	for (const suite of RUN) {
		const st = state.get(suite.name);
		const counts = describeCounts(st.results?.counts) || st.note;
		const result = st.status === 'skipped' ? `SKIPPED: ${st.reason}` : `${st.status}${counts ? ` (${counts})` : ''}`;
		say(`  ${title(suite).padEnd(30)} ${result.padEnd(40)} ${st.ms === undefined ? '' : seconds(st.ms).padStart(6)}`);
		for (const s of st.results?.skips ?? []) say(`      skipped: ${s.title}: ${s.reason}`);
	}
	const verdict = failed.length ? `FAILED: ${failed.map(title).join(', ')}` : 'all passed';
	say(`  ${'total'.padEnd(30)} ${verdict.padEnd(40)} ${seconds(Date.now() - started).padStart(6)}`);
	for (const suite of failed) say(describeFailure(suite, state.get(suite.name), { errors: false }).join('\n'));
	if (userWorkDir) say(`work folder (N8N_E2E_WORK_DIR): ${workDir}`);
	else if (failed.length) say(`work folder kept (n8n instances with their server logs, each suite's log): ${workDir}`);
	else fs.rmSync(workDir, { recursive: true, force: true });
	return failed.length ? 1 : 0;
}

async function main() {
	say(`npm test: ${RUN.length} suites on ${cores} cores (load ${loadAtStart}); logs in ${logDir}`);
	const missing = missingSystemPackages(RUN.filter((s) => s.system && !named(s, skip)).map((s) => s.system));
	if (missing) {
		const suites = RUN.filter((s) => missing.suites.includes(s.system)).map((s) => s.name).join(',');
		say(`npm test needs ${missing.what} for the ${suites} suite(s). Install with:\n\n  ${missing.command}\n\nor leave them out: npm test -- --skip=${suites}`);
		if (!userWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
		process.exit(1);
	}
	await runAll();
	process.exit(summary());
}

// Ctrl-C reaches the suites too; a SIGTERM is passed on. Each suite stops the n8n processes it started.
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.once(signal, () => {
		for (const child of children) child.kill(signal);
		say(`npm test: stopped by ${signal}; work folder: ${workDir}`);
		setTimeout(() => process.exit(130), 10000).unref();
		Promise.all([...children].map((c) => new Promise((r) => c.once('exit', r)))).then(() => process.exit(130));
	});
}
main().catch((error) => {
	say(`npm test: ${error.stack ?? error}`);
	process.exit(1);
});

'use strict';
// n8n's queue mode on one machine, for the queue e2e, the bench and `npm run start:queue`:
// PostgreSQL 15 (run as the `postgres` user in a temporary data folder), Redis, an n8n main, n8n
// workers and an n8n webhook processor, each process with its own user folder (the package installed
// into its ~/.n8n/nodes, as README's "Queue mode" tells users), its own ports, and the shared
// N8N_ENCRYPTION_KEY, database and Redis. Everything on loopback, on free ports.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const util = require('./util');
const { createInstance } = require('./instance');

const POSTGRES_USER = 'postgres';

/** PostgreSQL's server tools (initdb, pg_ctl) from Debian's postgresql-15, or null. */
function postgresBinDir() {
	const candidates = ['/usr/lib/postgresql/15/bin'];
	try {
		const listed = execFileSync('dpkg', ['-L', 'postgresql-15'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
		const initdb = listed.split('\n').find((l) => l.endsWith('/bin/initdb'));
		if (initdb) candidates.unshift(path.dirname(initdb));
	} catch {
		/* not a Debian package here */
	}
	return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) ?? null;
}

function which(cmd) {
	for (const dir of (process.env.PATH || '').split(':')) {
		const file = path.join(dir, cmd);
		if (dir && fs.existsSync(file)) return file;
	}
	return null;
}

/** Why queue mode cannot run here, or null when Postgres and Redis can be started. */
function queueModeUnavailable() {
	if (!postgresBinDir()) return 'PostgreSQL 15 server tools (initdb, pg_ctl) not found (Debian: apt-get install postgresql-15)';
	if (!which('redis-server')) return 'redis-server not found (Debian: apt-get install redis-server)';
	const root = process.getuid?.() === 0;
	if (root && !which('runuser')) return 'running as root but runuser is missing (Postgres must run as the postgres user)';
	if (root) {
		try {
			execFileSync('id', [POSTGRES_USER], { stdio: 'ignore' });
		} catch {
			return `running as root but there is no ${POSTGRES_USER} user to run Postgres as`;
		}
	}
	return null;
}

/** Runs a Postgres tool as the postgres user when we are root (Postgres refuses to run as root). */
function asPostgres(bin, args) {
	return process.getuid?.() === 0 ? ['runuser', ['-u', POSTGRES_USER, '--', bin, ...args]] : [bin, args];
}

/** PostgreSQL in a new data folder on a free port; trust authentication on loopback only. */
async function startPostgres({ log = util.defaultLog } = {}) {
	const bin = postgresBinDir();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-pg-'));
	const data = path.join(dir, 'data');
	const port = await util.freePort();
	if (process.getuid?.() === 0) execFileSync('chown', ['-R', `${POSTGRES_USER}:`, dir]);
	fs.chmodSync(dir, 0o700);
	const initdb = asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', POSTGRES_USER, '--no-sync', '-E', 'UTF8']);
	await util.runOrThrow(initdb[0], initdb[1], { timeoutMs: 120000 });
	const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=100`;
	const start = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
	await util.runOrThrow(start[0], start[1], { timeoutMs: 90000 });
	log(`postgres on 127.0.0.1:${port} (${data})`);
	// pg_ctl runs Postgres as a daemon, outside our process group: stop it even when we exit abruptly.
	const onExit = () => {
		try {
			const cmd = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
			execFileSync(cmd[0], cmd[1], { stdio: 'ignore', timeout: 20000 });
		} catch {
			/* already stopped */
		}
		fs.rmSync(dir, { recursive: true, force: true });
	};
	process.once('exit', onExit);
	const stop = async () => {
		process.removeListener('exit', onExit);
		const cmd = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
		await util.run(cmd[0], cmd[1], { timeoutMs: 60000 });
		fs.rmSync(dir, { recursive: true, force: true });
	};
	return { host: '127.0.0.1', port, database: 'postgres', user: POSTGRES_USER, stop };
}

/** redis-server on a free loopback port, no persistence. */
async function startRedis({ log = util.defaultLog } = {}) {
	const port = await util.freePort();
	const child = util.spawnTracked('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (d) => {
		out += d;
	});
	await util.waitUntil('redis-server to accept connections', () => {
		if (child.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
		return /Ready to accept connections/.test(out);
	}, { timeoutMs: 20000, intervalMs: 100 });
	log(`redis on 127.0.0.1:${port}`);
	const stop = async () => {
		if (child.exitCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		util.killGroup(child, 'SIGTERM');
		await Promise.race([exited, util.sleep(5000)]);
		util.killGroup(child, 'SIGKILL');
	};
	return { host: '127.0.0.1', port, stop };
}

/** Waits until `url` answers 2xx, or the process exits, or the time is up. */
async function waitForUrl(url, { child, timeoutMs, logFile }) {
	try {
		await util.waitUntil(`${url} to answer`, async () => {
			if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: process exited`);
			return (await util.freshFetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => null))?.ok;
		}, { timeoutMs, intervalMs: 300 });
	} catch (error) {
		error.message += `; its log ${logFile} ends:\n${tail(logFile)}`;
		throw error;
	}
}

function tail(file, lines = 8) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** Starts `n8n <command>` for an instance with extra env; logs to a file in its user folder. */
async function spawnN8n(instance, command, args, env) {
	const procEnv = await instance.processEnv(env);
	const logFile = path.join(instance.userFolder, `${command}.log`);
	const fd = fs.openSync(logFile, 'a');
	const child = util.spawnTracked(instance.runtime.nodeBin, [instance.runtime.n8nBin, command, ...args], {
		cwd: instance.userFolder,
		env: procEnv,
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			util.killGroup(child, 'SIGTERM');
			await Promise.race([exited, util.sleep(20000)]);
		}
		util.killGroup(child, 'SIGKILL');
	};
	return { child, logFile, stop, readLog: () => fs.readFileSync(logFile, 'utf8') };
}

/**
 * The whole topology. Returns { main (a REST client as instance.startServer gives), workers[],
 * webhook, webhookUrl, instances, postgres, redis, stop() }. `workers` and `webhook` carry
 * `readLog()`, each worker also `kill()` (SIGKILL) and `restart()`; `main.instance` imports
 * credentials and workflows with the CLI.
 * @param {{ version?: string, workers?: number, concurrency?: number, name?: string, log?: Function,
 *   env?: object }} [opts]
 */
async function startQueueTopology({ version = 'v2', workers = 2, concurrency = 5, name = 'queue', log = util.defaultLog, env = {} } = {}) {
	const stops = [];
	const stop = async () => {
		for (const s of stops.reverse()) {
			try {
				await s();
			} catch (error) {
				log(`stop: ${error.message}`);
			}
		}
	};
	try {
		const [postgres, redis] = await Promise.all([startPostgres({ log }), startRedis({ log })]);
		stops.push(postgres.stop, redis.stop);
		const webhookPort = await util.freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}/`;
		const shared = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			WEBHOOK_URL: webhookUrl,
			N8N_WEBHOOK_URL: webhookUrl,
			N8N_LOG_LEVEL: 'info',
			...env,
		};
		const roles = ['main', ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}`), 'webhook'];
		// One user folder per process, the package installed into each (sequentially: npm is busy enough).
		const instances = {};
		for (const role of roles) {
			instances[role] = await createInstance(version, { name: `${name}-${role}`, useDbTemplate: false, env: shared, log });
		}
		log(`package installed into ${roles.length} user folders`);

		// The main first: it creates the schema (migrations) the others expect.
		const main = await instances.main.startServer({ timeoutMs: 180000, env: { WEBHOOK_URL: webhookUrl, N8N_WEBHOOK_URL: webhookUrl } });
		main.instance = instances.main;
		stops.push(main.stop);
		log(`main on ${main.url}`);

		/** A worker process; restarted in place (same user folder, log and ports) by `restart()`. */
		const startWorker = async (role) => {
			const healthPort = await util.freePort();
			const env = {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				N8N_PORT: String(await util.freePort()),
			};
			const worker = { role, healthPort };
			const spawn = async () => {
				Object.assign(worker, await spawnN8n(instances[role], 'worker', [`--concurrency=${concurrency}`], env));
				await waitForUrl(`http://127.0.0.1:${healthPort}/healthz/readiness`, { child: worker.child, timeoutMs: 180000, logFile: worker.logFile });
			};
			await spawn();
			stops.push(() => worker.stop());
			/** SIGKILL to the worker's process group (n8n and its task runner), as when a machine dies. */
			worker.kill = async () => {
				if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
				const exited = new Promise((resolve) => worker.child.once('exit', resolve));
				util.killGroup(worker.child, 'SIGKILL');
				await exited;
			};
			worker.restart = spawn;
			log(`${role} ready (health on ${healthPort})`);
			return worker;
		};
		const workerProcs = await Promise.all(roles.filter((r) => r.startsWith('worker-')).map(startWorker));

		const webhookProc = await spawnN8n(instances.webhook, 'webhook', [], {
			N8N_PORT: String(webhookPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
		});
		stops.push(webhookProc.stop);
		await waitForUrl(`${webhookUrl}healthz/readiness`, { child: webhookProc.child, timeoutMs: 180000, logFile: webhookProc.logFile });
		log(`webhook processor on ${webhookUrl}`);

		return { main, workers: workerProcs, webhook: Object.assign(webhookProc, { url: webhookUrl }), webhookUrl, instances, postgres, redis, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Execution ids a worker started, read from its log ("Worker started execution <id> (job <n>)"). */
function executionsStartedBy(worker) {
	return [...worker.readLog().matchAll(/Worker started execution (\S+) \(job/g)].map((m) => m[1]);
}

module.exports = { queueModeUnavailable, postgresBinDir, which, startPostgres, startRedis, startQueueTopology, executionsStartedBy };

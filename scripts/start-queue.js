'use strict';
// npm run start:queue: n8n's queue mode on this machine, to try the package the way larger teams run
// n8n: PostgreSQL 15 and Redis (temporary, on free ports), an n8n main, two workers and a webhook
// processor, each with the package installed into its own user folder (test/e2e/lib/queue.js), the
// sandbox emulator, the credential and the example workflows. Prints the URLs; Ctrl-C stops everything.
// Needs postgresql-15 and redis-server (Debian: apt-get install redis-server). Nothing is kept.

require('./ensure-deps').ensureDevDependencies();

const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const log = (message) => console.log(`[start:queue] ${message}`);

async function main() {
	const { queueModeUnavailable, startQueueTopology } = require('../test/e2e/lib/queue');
	const { sandboxCredentials } = require('../test/e2e/lib/example-server');
	const unavailable = queueModeUnavailable();
	if (unavailable) throw new Error(`queue mode cannot start here: ${unavailable}`);
	process.env.N8N_E2E_WORK_DIR ||= path.join(require('os').tmpdir(), 'n8n-nodes-verification-services-queue');

	log('building the package');
	execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });

	const { startSandbox } = require('../sandbox/server');
	const sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT || 0), host: '127.0.0.1' });
	log(`sandbox emulator on ${sandbox.baseUrl}`);

	const topology = await startQueueTopology({ name: 'local-queue', workers: 2, concurrency: 5, log });
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		log('stopping the webhook processor, workers, main, Redis, Postgres and the emulator');
		await topology.stop().catch((e) => log(e.message));
		await sandbox.close().catch(() => {});
		process.exit(0);
	};

	// Our handler, not the e2e library's (which kills at once): stop everything in order.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.removeAllListeners(signal);
		process.on(signal, stop);
	}

	const { main } = topology;
	const examples = fs
		.readdirSync(path.join(root, 'examples'))
		.filter((f) => f.endsWith('.json') && !f.startsWith('credentials'))
		.map((f) => JSON.parse(fs.readFileSync(path.join(root, 'examples', f), 'utf8')));
	await main.instance.importCredentials(sandboxCredentials(sandbox.baseUrl));
	await main.instance.importWorkflows(examples);
	await main.ensureLoggedIn();
	const { OWNER } = require('../test/e2e/lib/rest');

	console.log(
		[
			'',
			`  n8n main (editor):   ${main.url}`,
			`  login:               ${OWNER.email}  /  ${OWNER.password}`,
			`  webhook processor:   ${topology.webhookUrl}  (N8N_WEBHOOK_URL: production webhooks go here)`,
			...topology.workers.map((w) => `  ${w.role}:            health http://127.0.0.1:${w.healthPort}/healthz, log ${w.logFile}`),
			`  Postgres / Redis:    127.0.0.1:${topology.postgres.port} / 127.0.0.1:${topology.redis.port}`,
			`  sandbox emulator:    ${sandbox.baseUrl}  (controls: ${sandbox.url}/__control)`,
			'',
			`  ${examples.length} example workflows and the sandbox credentials are imported; executions run on the workers.`,
			'  Press Ctrl-C to stop everything (nothing is kept).',
			'',
		].join('\n'),
	);
}

main().catch((error) => {
	console.error(`[start:queue] failed: ${error.stack || error.message}`);
	process.exit(1);
});

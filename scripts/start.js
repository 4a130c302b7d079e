'use strict';
// npm start: the main job. Installs what is missing, builds, starts the sandbox emulator and a local n8n
// with this package installed as a community package, creates the credential pointing at the emulator,
// imports the example workflows, and prints the URL and the login. Ctrl-C stops both.
// n8n's state lives in .n8n-local/ (ignored by git), so workflows and executions survive a restart.

require('./ensure-deps').ensureDevDependencies();

const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');
const { installProgress } = require('./lib/install-progress');

const root = path.resolve(__dirname, '..');
const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010);
const USER_FOLDER = process.env.N8N_LOCAL_FOLDER ? path.resolve(process.env.N8N_LOCAL_FOLDER) : path.join(root, '.n8n-local');

function log(message) {
	console.log(`[start] ${message}`);
}

function exampleWorkflows() {
	const dir = path.join(root, 'examples');
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json') && !f.startsWith('credentials'))
		.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

/** Whether dist/ was built after the last change to what goes into it (tsc writes every .js anew). */
function builtAfterSources() {
	const files = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f)) : []);
	const mtimes = (list) => list.filter((f) => fs.statSync(f).isFile()).map((f) => fs.statSync(f).mtimeMs);
	const built = mtimes(files(path.join(root, 'dist')).filter((f) => f.endsWith('.js')));
	const sources = mtimes([
		...['nodes', 'credentials', 'icons'].flatMap((d) => files(path.join(root, d))),
		...['package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js'].map((f) => path.join(root, f)),
	]);
	return built.length > 0 && Math.min(...built) > Math.max(...sources);
}

// Stop on SIGINT/SIGTERM/SIGHUP whenever they come, even while n8n is still installing or starting.
// npm forwards a signal it receives to its child: the script is `exec node scripts/start.js`, so that
// child is this process (a plain `sh -c` neither forwards nor dies on SIGINT). Ctrl-C reaches the whole
// foreground group. When npm itself is killed outright, this process is re-parented: stop then too.
const running = { server: null, sandbox: null };
let stopping = false;
async function stop(code = 0) {
	if (stopping) return;
	stopping = true;
	log('stopping n8n and the emulator');
	await running.server?.stop().catch(() => {});
	await running.sandbox?.close().catch(() => {});
	process.exit(code);
}
require('../test/e2e/lib/util').disableSignalHooks();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(0));
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) void stop(0);
}, 1000).unref();

async function main() {
	if (builtAfterSources()) {
		log('the package is built (dist/ is newer than its sources)');
	} else {
		log('building the package');
		execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
	}

	const { startSandbox } = require('../sandbox/server');
	const sandbox = await startSandbox({ port: SANDBOX_PORT });
	running.sandbox = sandbox;
	log(`sandbox emulator on ${sandbox.baseUrl}`);

	const { createInstance } = require('../test/e2e/lib/instance');
	const { sandboxCredentials } = require('../test/e2e/lib/example-server');
	const installed = installProgress('v2', { root, log });
	const instance = await createInstance('v2', { name: 'local', userFolder: USER_FOLDER, keepExisting: true, log });
	installed();
	await instance.importCredentials(sandboxCredentials(sandbox.baseUrl));
	const workflows = exampleWorkflows();
	await instance.importWorkflows(workflows);
	log(`imported ${workflows.length} example workflows and the sandbox credentials (the API key, the webhook signing secret)`);

	log(`starting n8n on port ${N8N_PORT}`);
	const server = await instance.startServer({ port: N8N_PORT });
	running.server = server;
	await server.ensureLoggedIn();
	// The data tables the examples write to, as a user creates them once in the editor, with a few sample rows.
	const { ensureDataTables, SAMPLE_ROWS } = require('../test/e2e/lib/data-tables');
	for (const workflow of workflows) await ensureDataTables(server, workflow, { sampleRows: SAMPLE_ROWS });
	const { OWNER } = require('../test/e2e/lib/rest');

	console.log(
		[
			'',
			`  n8n is ready:      ${server.url}`,
			`  login:             ${OWNER.email}  /  ${OWNER.password}`,
			`  sandbox emulator:  ${sandbox.baseUrl}  (controls: ${sandbox.url}/__control, see sandbox/README.md)`,
			`  n8n log:           ${server.logFile}`,
			'',
			'  Open the URL, log in, and run any workflow under "Overview": they use the emulator.',
			'  Press Ctrl-C to stop.',
			'',
		].join('\n'),
	);
	server.process.once('exit', (code) => {
		if (!stopping) {
			log(`n8n exited (${code}); see ${server.logFile}`);
			void stop(1);
		}
	});
}

main().catch((error) => {
	if (stopping) return;
	console.error(`[start] failed: ${error.stack || error.message}`);
	void stop(1);
});

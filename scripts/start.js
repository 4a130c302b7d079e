'use strict';
// npm start: the main job. Installs what is missing, builds, starts the sandbox emulator and a local n8n
// with this package installed as a community package, creates the credential pointing at the emulator,
// imports the example workflows, and prints the URL and the login. Ctrl-C stops both.
// n8n's state lives in .n8n-local/ (ignored by git), so workflows and executions survive a restart.

require('./ensure-deps');

const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010);
const USER_FOLDER = path.join(root, '.n8n-local');

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

function sandboxCredential(baseUrl) {
	const [credential] = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'credentials.sandbox.json'), 'utf8'));
	return { ...credential, data: { ...credential.data, sandboxBaseUrl: baseUrl } };
}

async function main() {
	log('building the package');
	execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });

	const { startSandbox } = require('../sandbox/server');
	const sandbox = await startSandbox({ port: SANDBOX_PORT });
	log(`sandbox emulator on ${sandbox.baseUrl}`);

	const { createInstance } = require('../test/e2e/lib/instance');
	log('preparing n8n 2.x (installed into test/e2e/n8n-v2 on the first run; this takes a few minutes)');
	const instance = await createInstance('v2', { name: 'local', userFolder: USER_FOLDER, keepExisting: true, log });
	await instance.importCredentials([sandboxCredential(sandbox.baseUrl)]);
	const workflows = exampleWorkflows();
	await instance.importWorkflows(workflows);
	log(`imported ${workflows.length} example workflows and the credential "Verification Services (sandbox emulator)"`);

	log(`starting n8n on port ${N8N_PORT}`);
	const server = await instance.startServer({ port: N8N_PORT });
	await server.ensureLoggedIn();
	const { OWNER } = require('../test/e2e/lib/rest');

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		log('stopping n8n and the emulator');
		await server.stop().catch(() => {});
		await sandbox.close().catch(() => {});
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);

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
			void stop();
		}
	});
}

main().catch((error) => {
	console.error(`[start] failed: ${error.stack || error.message}`);
	process.exit(1);
});

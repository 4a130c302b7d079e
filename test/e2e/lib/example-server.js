'use strict';
// An example workflow as a user runs it after `npm start`: the emulator, an n8n server with this
// package, the sandbox credentials pointed at the emulator, the examples created and published, and
// the data tables they write to created (n8n 1.x: picked by id, as a 1.x user picks them).

const { startSandbox } = require('../../../sandbox/server');
const { closeSuite } = require('../trigger-helpers');
const { emulatorRequests } = require('./util');
const { ensureDataTables, pickDataTablesById } = require('./data-tables');
const { createInstance, packageManifest } = require('./instance');
const { EXAMPLE_CREDENTIALS } = require('./workflows');

/**
 * The examples' credentials: the API credentials (one account, and one account per client) pointed at
 * the emulator, the webhook trigger's signing secret, the MCP bearer token.
 */
const sandboxCredentials = (baseUrl) =>
	EXAMPLE_CREDENTIALS.map((c) => (c.type === 'verificationServicesApi' ? { ...c, data: { ...c.data, sandboxBaseUrl: baseUrl } } : c));

/**
 * Starts the emulator and an n8n server running `workflows`. Resolves with { sandbox, instance,
 * server, base (the server's URL), tables (data table ids by name), ids (the workflows' ids, in
 * order: the server chooses them) }; when a step fails, what was started is closed (the n8n folder
 * kept for inspection) before the error is thrown.
 */
async function startExampleServer(version, { name, log, workflows }) {
	const manifest = packageManifest();
	if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
	const started = {};
	try {
		started.sandbox = await startSandbox({ port: 0, host: '127.0.0.1', config: { latencyMs: 0 } });
		started.instance = await createInstance(version, { name, log });
		const server = await started.instance.startServer();
		const base = server.url;
		await server.ensureLoggedIn();
		const { workflowIds: ids } = await server.createCredentialsAndWorkflows({ credentials: sandboxCredentials(started.sandbox.baseUrl), workflows });
		const tables = {};
		for (const [i, workflow] of workflows.entries()) {
			const tableIds = await ensureDataTables(server, workflow);
			Object.assign(tables, tableIds);
			if (version === 'v1' && Object.keys(tableIds).length) await pickDataTablesById(server, ids[i], tableIds);
		}
		for (const id of ids) await server.activateWorkflow(id);
		return { ...started, server, base, tables, ids };
	} catch (error) {
		await closeSuite({ ...started, failed: true, log }).catch(() => {});
		throw error;
	}
}

/**
 * A suite's example server, from its `before` (startExampleServer, then `ready(suite)`) to its `after`:
 * the suite object gets sandbox, instance, server, base, tables and ids; `requests(route)` gives the
 * bodies the emulator received on the route.
 */
function exampleSuite(version, { name, log, workflows, ready = async () => {} }) {
	const { before, after } = require('node:test');
	const requests = async (route) => (await emulatorRequests(suite.sandbox.url, route)).map((r) => r.body);
	const suite = { requests };
	before(async () => {
		Object.assign(suite, await startExampleServer(version, { name, log, workflows }));
		await ready(suite);
	}, { timeout: 45 * 60 * 1000 });
	after(async () => await closeSuite({ ...suite, failed: false, log }), { timeout: 2 * 60 * 1000 });
	return suite;
}

module.exports = { exampleSuite, sandboxCredentials, startExampleServer };

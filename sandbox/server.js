#!/usr/bin/env node
'use strict';

// Starts and stops the sandbox emulator; also the command-line entry point:
//   node sandbox/server.js [--port 4010] [--host 127.0.0.1] [--latency 50] [--rate 20] [--generation g3]
// (env SANDBOX_PORT works too). Prints one line with the API base URL; stops on SIGINT/SIGTERM.

const http = require('node:http');
const { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, BASE_PATH } = require('./constants');
const { createApp } = require('./app');

function originFor(host, port) {
	const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
	return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/**
 * Starts an emulator.
 * @param {{port?: number, host?: string, config?: object}} [options] config = initial config patch
 *   (the baseline that POST /__control/reset returns to).
 * @returns {Promise<{url: string, baseUrl: string, port: number, close(): Promise<void>, app: object}>}
 */
function startSandbox({ port = 0, host = '127.0.0.1', config } = {}) {
	let app;
	try {
		app = createApp({ config });
	} catch (err) {
		return Promise.reject(err);
	}
	const server = http.createServer({ keepAlive: true }, app.handle);
	server.keepAliveTimeout = 30000;
	server.headersTimeout = 35000;
	server.maxRequestsPerSocket = 0;

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port, host, backlog: 4096 }, () => {
			server.off('error', reject);
			const actualPort = server.address().port;
			const url = originFor(host, actualPort);
			app.setOrigin(url);
			let closing = null;
			resolve({
				url,
				baseUrl: `${url}${BASE_PATH}`,
				port: actualPort,
				app,
				close() {
					if (!closing) {
						closing = new Promise((done) => {
							server.close(() => done());
							server.closeAllConnections();
						});
					}
					return closing;
				},
			});
		});
	});
}

function parseArgs(argv) {
	const out = {};
	for (let i = 0; i < argv.length; i += 1) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = inline !== undefined ? inline : argv[i + 1];
		const take = () => {
			if (inline === undefined) i += 1;
			return value;
		};
		if (flag === '--port') out.port = Number(take());
		else if (flag === '--host') out.host = take();
		else if (flag === '--latency') out.latency = Number(take());
		else if (flag === '--rate') out.rate = Number(take());
		else if (flag === '--generation') out.generation = take();
		else if (flag === '--help' || flag === '-h') out.help = true;
		else throw new Error(`Unknown argument: ${argv[i]}`);
	}
	return out;
}

async function main() {
	let args;
	try {
		args = parseArgs(process.argv.slice(2));
	} catch (err) {
		process.stderr.write(`${err.message}\n`);
		process.exit(2);
	}
	if (args.help) {
		process.stdout.write('usage: node sandbox/server.js [--port 4010] [--host 127.0.0.1] [--latency ms] [--rate requestsPerSecond] [--generation g2|g3]\n');
		return;
	}
	const config = {};
	if (args.latency !== undefined) config.latencyMs = args.latency;
	if (args.rate !== undefined) config.rateLimit = { requestsPerSecond: args.rate };
	if (args.generation !== undefined) config.generation = args.generation;
	const port = args.port !== undefined ? args.port : Number(process.env.SANDBOX_PORT || 0);
	let sandbox;
	try {
		sandbox = await startSandbox({ port, host: args.host || '127.0.0.1', config });
	} catch (err) {
		process.stderr.write(`sandbox emulator failed to start: ${err.message}\n`);
		process.exit(1);
	}
	process.stdout.write(`sandbox emulator listening on ${sandbox.baseUrl}\n`);
	const stop = () => {
		sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) main();

module.exports = { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID };

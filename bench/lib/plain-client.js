'use strict';
// The plain client of `npm run bench` (bench/README.md, "Plain client": the same POSTs from plain Node,
// and its pacer at i x 1.01 / rate). Runs as its own process: `node plain-client.js '<json options>'`;
// prints one JSON line.

const http = require('node:http');
const { benchNames } = require('./names');

const opts = JSON.parse(process.argv[2]);
const { baseUrl, count, concurrency, ratePerSecond = 0, apiKey, customerId, client: wanted, n8nModules } = opts;

const names = benchNames(count);
const base = new URL(baseUrl);
const basePath = base.pathname.replace(/\/+$/, '');

// 'http' (Node's keep-alive agent), 'undici' or 'n8n-helper'.
const undici = wanted === 'undici' ? require('undici') : null;

/**
 * n8n's own outbound HTTP client (what every node's helpers.httpRequest ends in), loaded from the
 * installed n8n and run under its Node: the floor for any node inside that n8n, before the node or
 * n8n's engine does anything. It opens a fresh connection per request (a new agent each time).
 */
function n8nHelperSender() {
	const load = (name) => require(require.resolve(name, { paths: [n8nModules] }));
	load('reflect-metadata');
	const { Container } = load('@n8n/di');
	const { OutboundHttp } = load('@n8n/backend-network');
	const requests = Container.get(OutboundHttp).requests();
	return {
		kind: `n8n OutboundHttp (${process.version})`,
		async send(method, path, headers, body) {
			const res = await requests.request({
				method,
				url: `${base.origin}${path}`,
				headers,
				body: body && headers['content-type'] === 'application/json' ? JSON.parse(body) : body,
				json: headers['content-type'] === 'application/json',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			});
			return { status: res.statusCode, headers: res.headers, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) };
		},
		close: async () => {},
	};
}

function makeSender() {
	if (wanted === 'n8n-helper') return n8nHelperSender();
	if (undici) {
		const pool = new undici.Pool(base.origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
		return {
			kind: `undici ${undici.VERSION ?? ''}`.trim(),
			async send(method, path, headers, body) {
				const res = await pool.request({ method, path, headers, body });
				const text = await res.body.text();
				return { status: res.statusCode, headers: res.headers, text };
			},
			close: () => pool.close(),
		};
	}
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
	return {
		kind: 'node:http keep-alive agent',
		send(method, path, headers, body) {
			return new Promise((resolve, reject) => {
				const req = http.request(
					{ host: base.hostname, port: base.port, method, path, headers: { ...headers, 'content-length': Buffer.byteLength(body ?? '') }, agent },
					(res) => {
						const chunks = [];
						res.on('data', (c) => chunks.push(c));
						res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }));
						res.on('error', reject);
					},
				);
				req.on('error', reject);
				req.end(body);
			});
		},
		close: async () => agent.destroy(),
	};
}

const PACER_MARGIN = 1.01;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
	const sender = makeSender();
	const t0 = performance.now();
	const auth = await sender.send(
		'POST',
		`${basePath}/auth`,
		{ 'api-key': apiKey, 'customer-id': customerId, 'content-type': 'application/x-www-form-urlencoded' },
		'',
	);
	if (auth.status !== 200) throw new Error(`POST /auth answered ${auth.status}: ${auth.text}`);
	const token = JSON.parse(auth.text).access_token;
	const tokenMs = performance.now() - t0;

	const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
	const intervalMs = ratePerSecond > 0 ? (1000 / ratePerSecond) * PACER_MARGIN : 0;
	let next = 0;
	let ok = 0;
	let failed = 0;
	let seen429 = 0;
	const start = performance.now();
	const lane = async () => {
		while (next < names.length) {
			const i = next++;
			if (intervalMs) {
				const wait = start + i * intervalMs - performance.now();
				if (wait > 0) await sleep(wait);
			}
			for (let attempt = 1; ; attempt++) {
				const res = await sender.send('POST', `${basePath}/aml/checkIndividual`, headers, JSON.stringify({ name: names[i] }));
				if (res.status >= 200 && res.status < 300) {
					JSON.parse(res.text);
					ok++;
					break;
				}
				if (res.status === 429 && attempt <= 10) {
					seen429++;
					await sleep(Number(res.headers['retry-after'] ?? 1) * 1000);
					continue;
				}
				failed++;
				break;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, lane));
	const wallMs = performance.now() - start;
	await sender.close();
	process.stdout.write(
		`${JSON.stringify({ client: sender.kind, wallMs, tokenMs, ok, failed, seen429, rssKb: process.memoryUsage().rss / 1024 })}\n`,
	);
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});

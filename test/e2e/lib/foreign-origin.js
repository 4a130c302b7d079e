'use strict';
// Another origin (another loopback port) that a redirect points at. It records every request with its
// header names and answers as a willing API would (a token at /auth, an empty AML result elsewhere),
// so a followed redirect would go on.

const http = require('node:http');

async function startForeignOrigin() {
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method, url: req.url, headers: Object.keys(req.headers) });
		req.resume();
		const body = req.url.includes('/auth') ? { access_token: 'foreign-token', expires_in: 3600 } : { totalHits: 0, hits: [] };
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		origin: `http://127.0.0.1:${server.address().port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

module.exports = { startForeignOrigin };

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import * as http from 'http';
import type { AddressInfo } from 'net';

/** What a foreign origin received: method, path and headers of every request. */
export interface ForeignRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
}

export interface ForeignOrigin {
	/** `http://127.0.0.1:PORT`: another origin than the emulator's (another port). */
	origin: string;
	requests: ForeignRequest[];
	close: () => Promise<void>;
}

/**
 * A server on another loopback port that stands for wherever a redirect points. It records every
 * request and answers as a willing API would (a token for /auth, an empty result otherwise), so a
 * client that follows a redirect carries on and the recorded requests show what it sent.
 */
export async function startForeignOrigin(): Promise<ForeignOrigin> {
	const requests: ForeignRequest[] = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method!, url: req.url!, headers: req.headers });
		req.resume();
		const body = req.url!.includes('/auth') ? { access_token: 'foreign-token', expires_in: 3600 } : { totalHits: 0, hits: [] };
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

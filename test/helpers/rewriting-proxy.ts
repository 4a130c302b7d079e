/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface RewritingProxy {
	/** The API base URL through the proxy, for the credential. */
	baseUrl: string;
	close: () => Promise<void>;
}

/**
 * A proxy in front of the emulator (`target` = its origin) that passes every request through and
 * replaces the JSON of the 200 answers `when` selects with `rewrite(json)`: an API generation or a
 * misbehaving API the emulator does not play itself.
 */
export async function startRewritingProxy(
	target: string,
	when: (method: string, path: string) => boolean,
	rewrite: (json: Record<string, unknown>) => unknown,
): Promise<RewritingProxy> {
	const origin = new URL(target);
	const server = http.createServer((req, res) => {
		const upstream = http.request(
			{ host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (c: Buffer) => chunks.push(c));
				answer.on('end', () => {
					let body = Buffer.concat(chunks);
					if (answer.statusCode === 200 && when(req.method!, req.url!)) {
						body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString('utf8')))));
					}
					res.writeHead(answer.statusCode!, { ...answer.headers, 'content-length': String(body.length) }).end(body);
				});
			},
		);
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/services`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

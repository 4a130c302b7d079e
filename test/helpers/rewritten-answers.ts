/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Sandbox, actionNode } from './sandbox';
import type { RunNodeResult } from './n8n';

/**
 * A proxy in front of the emulator (`target` = its origin) that passes every request through and
 * replaces the JSON of the 200 answers `when` selects with `rewrite(json)`: an API generation or a
 * misbehaving API the emulator does not play itself. `serve` may answer a request itself (it returns true).
 */
export async function startRewritingProxy(
	target: string,
	when: (method: string, path: string) => boolean,
	rewrite: (json: IDataObject) => unknown,
	serve: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false,
) {
	const upstreamOrigin = new URL(target);
	const server = http.createServer((req, res) => {
		if (serve(req, res)) return;
		const upstream = http.request(
			{ host: upstreamOrigin.hostname, port: upstreamOrigin.port, path: req.url, method: req.method, headers: req.headers },
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
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		/** The API base URL through the proxy, for the credential. */
		baseUrl: `${origin}/api/services`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Runs the action node on `resource` with the credential pointing at a proxy in front of the emulator that replaces the 200
 * answers of the API path `path` (e.g. /address/verify) with `rewrite(answer)`: another API
 * generation, or an answer the emulator does not give.
 */
export async function runWithRewrittenAnswers(
	emulator: Sandbox,
	resource: string,
	path: string,
	rewrite: (answer: IDataObject) => unknown,
	parameters: INodeParameters,
	options: { continueOnFail?: boolean } = {},
): Promise<RunNodeResult> {
	const origin = emulator.baseUrl.replace(/\/api\/services$/, '');
	const proxy = await startRewritingProxy(origin, (_method, url) => url.endsWith(path), rewrite);
	try {
		return await emulator.run(actionNode, { resource, ...parameters }, { credentials: { sandboxBaseUrl: proxy.baseUrl }, continueOnFail: options.continueOnFail });
	} finally {
		await proxy.close();
	}
}

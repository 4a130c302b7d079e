import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { actionNode } from './action-node';
import type { Sandbox } from './sandbox';
import type { RunNodeResult } from './n8n';
import { startRewritingProxy } from './rewriting-proxy';

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
	const proxy = await startRewritingProxy(origin, (_method, url) => url.endsWith(path), rewrite as (json: Record<string, unknown>) => unknown);
	try {
		return await emulator.run(actionNode, { resource, ...parameters }, { credentials: { sandboxBaseUrl: proxy.baseUrl }, continueOnFail: options.continueOnFail });
	} finally {
		await proxy.close();
	}
}

import { type INode, NodeOperationError } from 'n8n-workflow';

import {
	ResponseDeadline,
	ResponseTooLarge,
	RedirectRefused,
} from '../../shared/transport/limited-request';
import {
	describeNetworkFailure,
	networkDetail,
	networkFailure,
} from '../../shared/transport/request-failure';

/** What to do when a download was refused by the request path's rules (limited-request.ts). */
function downloadAdvice(error: unknown): string | undefined {
	if (error instanceof RedirectRefused)
		return 'The file host answered with a redirect, which is never followed. Run Get Verification Result again to receive fresh links.';
	if (error instanceof ResponseTooLarge)
		return 'The file is larger than any signed document should be, so it was not kept. Check the session on the provider side.';
	if (error instanceof ResponseDeadline)
		return 'The file did not arrive in time: raise Timeout (Seconds) in the node options, or run the operation again. The verification result itself was read.';
	return undefined;
}

/** A signed document that Get Verification Result downloads could not be fetched. */
export function downloadError(
	node: INode,
	failure: { what: string; url: string; itemIndex: number; statusCode?: number; error?: unknown },
): NodeOperationError {
	const { what, url, itemIndex, statusCode, error } = failure;
	const advice = downloadAdvice(error);
	const how =
		statusCode !== undefined
			? `with HTTP ${statusCode}`
			: advice !== undefined
				? `(${(error as Error).message})`
				: `(${describeNetworkFailure(error)})`;
	return new NodeOperationError(node, `Downloading ${what} from ${url} failed ${how}`, {
		itemIndex,
		description:
			statusCode !== undefined
				? 'The pre-signed link was refused (it may have expired or been revoked). Run Get Verification Result again to receive fresh links.'
				: (advice ??
					`${networkDetail(networkFailure(error))} The file host could not be reached. Run the operation again; the verification result itself was read.`),
	});
}

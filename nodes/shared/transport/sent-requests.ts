import type { IExecuteFunctions } from 'n8n-workflow';

import type { ApiResponse } from './request-types';

/**
 * What this n8n process remembers of the requests that must not go out again (classify.ts `mayGoOutAgain`) within
 * one execution: the answer an item got, or the error of an item whose fate is unknown. n8n's Retry On
 * Fail re-runs the whole node (n8n-core WorkflowExecute: when the node throws, and when its first output
 * item carries `json.error`, which Continue On Fail produces), with the same execution, node, run index
 * and items; a try then gives each remembered item back what it got instead of sending it again.
 *
 * The key is the execution, the node, the run index, the item and the request's place among the
 * item's requests; not the request's content: an expression that gives another value on each try
 * (`{{ $now }}` in a description) would make a second payment of the same item look new. A loop or an
 * AI agent that runs the node again gets a new run index, a sub-workflow or a re-run a new execution:
 * those are new requests.
 *
 * Bounded: entries expire after KEEP_MS and the oldest go beyond MAX_REMEMBERED.
 */

/** Far longer than any node run and its retries (at most 5 tries, at most 5 s apart). */
const KEEP_MS = 24 * 60 * 60 * 1000;
export const MAX_REMEMBERED = 50_000;

export type Remembered = { at: number } & ({ response: ApiResponse } | { error: unknown });

const remembered = new Map<string, Remembered>();

/**
 * The scope of this run of the node: the execution, the node, the run index; undefined when nothing
 * can re-run it (Retry On Fail off: n8n then runs the node once per run index) or without an
 * execution id. An item's key is `sendKey(scope, itemIndex, n)`.
 */
export function runScope(ctx: IExecuteFunctions): string | undefined {
	const node = ctx.getNode();
	const executionId = ctx.getExecutionId?.();
	if (node.retryOnFail !== true || !executionId) return undefined;
	// The run index is on n8n's data proxy only ($runIndex); one proxy per node run.
	const runIndex = (ctx.getWorkflowDataProxy(0) as { $runIndex?: unknown }).$runIndex;
	if (typeof runIndex !== 'number') return undefined;
	return JSON.stringify([executionId, node.id ?? node.name, runIndex]);
}

/** The key of an item's `sequence`-th request (0 first) in a run's scope. */
export function sendKey(scope: string, itemIndex: number, sequence: number): string {
	return `${scope}#${itemIndex}#${sequence}`;
}

function prune(now: number): void {
	for (const [key, entry] of remembered) {
		if (entry.at > now - KEEP_MS && remembered.size <= MAX_REMEMBERED) break;
		remembered.delete(key);
	}
}

/** What an earlier try got for this request, if it must not go out again. */
export function recallSend(key: string): Remembered | undefined {
	const entry = remembered.get(key);
	if (entry && entry.at <= Date.now() - KEEP_MS) {
		remembered.delete(key);
		return undefined;
	}
	return entry;
}

/** Remembers the answer, or the error, of a request that must not go out again. */
export function rememberSend(
	key: string,
	result: { response: ApiResponse } | { error: unknown },
	now = Date.now(),
): void {
	remembered.delete(key);
	remembered.set(key, { at: now, ...result });
	prune(now);
}

/** How many requests are remembered (tests). */
export function rememberedSends(): number {
	return remembered.size;
}

/** Forgets everything (tests). */
export function forgetSends(): void {
	remembered.clear();
}

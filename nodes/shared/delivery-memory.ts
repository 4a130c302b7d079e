import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/**
 * The duplicate memory of the webhook triggers (QES Onboarding Trigger, Verification Webhook Trigger):
 * what a provider that resends a delivery must not start twice.
 *
 * Per trigger scope, duplicate key -> time of the last copy (epoch ms), oldest first (Map keeps
 * insertion order; a refreshed key moves to the end), in this process's memory and in the node's
 * static data.
 *
 * Why in memory as well as in static data: n8n hands every request its own copy of the workflow's
 * static data, read from the database when the request arrives, and writes it back only after
 * webhook() returned. Copies that arrive together all read the same state, so only a check and
 * record in this process, with no await in between, lets exactly one of them through. Static data
 * carries the memory over an n8n restart, provided n8n saves it: see startAnswered().
 */

/** Stored form of one scope's memory: duplicate key -> epoch ms of its last copy. */
export type RememberedDeliveries = Record<string, number>;

/** Default upper bound of remembered deliveries per trigger, so static data stays small whatever the traffic. */
export const MAX_REMEMBERED_DELIVERIES = 500;
/** Upper bound of triggers (workflow, node, secret) remembered by this n8n process. */
const MAX_SCOPES = 1_000;

const memories = new Map<string, Map<string, number>>();

function memoryOf(scope: string): Map<string, number> {
	let memory = memories.get(scope);
	if (memory) {
		memories.delete(scope); // most recently used scope last
	} else {
		memory = new Map();
		if (memories.size >= MAX_SCOPES) memories.delete(memories.keys().next().value!);
	}
	memories.set(scope, memory);
	return memory;
}

function prune(memory: Map<string, number>, windowMs: number, now: number, limit: number): void {
	for (const [key, at] of memory) {
		if (at > now - windowMs && memory.size <= limit) break;
		memory.delete(key);
	}
}

/** Adds what static data remembers and this process does not (after a restart, or another n8n process). */
function merge(memory: Map<string, number>, persisted: RememberedDeliveries | undefined, windowMs: number, now: number): void {
	if (!persisted || typeof persisted !== 'object') return;
	let added = false;
	for (const [key, at] of Object.entries(persisted)) {
		if (typeof at !== 'number' || !(at > now - windowMs) || at > now) continue;
		const known = memory.get(key);
		if (known === undefined || known < at) {
			memory.set(key, at);
			added = true;
		}
	}
	if (added) {
		const sorted = [...memory].sort((a, b) => a[1] - b[1]);
		memory.clear();
		for (const [key, at] of sorted) memory.set(key, at);
	}
}

export interface DeliveryClaim {
	/** True when one of the keys was seen within the window: answer, start nothing. */
	duplicate: boolean;
	/** Undoes the record of a first copy that could not be handled, so that a resend is accepted. */
	release(): void;
	/** The scope's memory as it should be stored in static data (bounded, newest last). */
	snapshot(): RememberedDeliveries;
}

export interface ClaimOptions {
	now?: number;
	/** Most keys kept per scope (default MAX_REMEMBERED_DELIVERIES); the oldest go first. */
	limit?: number;
}

/**
 * Checks and records one delivery, synchronously. A delivery is a duplicate when any of its keys was
 * seen within the window; all its keys are recorded (a duplicate refreshes them, so a provider that
 * keeps resending stays recognised).
 */
export function claimDelivery(
	scope: string,
	keys: string | readonly string[],
	windowMs: number,
	persisted: RememberedDeliveries | undefined,
	{ now = Date.now(), limit = MAX_REMEMBERED_DELIVERIES }: ClaimOptions = {},
): DeliveryClaim {
	const list = typeof keys === 'string' ? [keys] : [...new Set(keys)];
	const memory = memoryOf(scope);
	merge(memory, persisted, windowMs, now);
	prune(memory, windowMs, now, limit);
	const duplicate = list.some((key) => memory.has(key));
	for (const key of list) {
		memory.delete(key);
		memory.set(key, now);
	}
	prune(memory, windowMs, now, limit);
	return {
		duplicate,
		release() {
			if (duplicate) return;
			for (const key of list) if (memory.get(key) === now) memory.delete(key);
		},
		snapshot: () => Object.fromEntries(memory),
	};
}

/** Forgets everything this process remembers for a scope prefix ('' = all); for a new registration and tests. */
export function forgetDeliveries(scopePrefix = ''): void {
	for (const scope of [...memories.keys()]) if (scope.startsWith(scopePrefix)) memories.delete(scope);
}

/** What an accepted delivery is answered with when the trigger answers it itself. */
export const STARTED_ANSWER: IDataObject = { received: true, started: true };

/**
 * Starts the workflow with `items` and answers the delivery here, 200 STARTED_ANSWER, instead of
 * leaving the answer to n8n. Use it for every delivery that starts an execution while the duplicate
 * memory is on.
 *
 * Why: n8n saves the static data webhook() changed when it hands the answer over (live webhooks'
 * response callback, WorkflowStaticDataService.saveStaticData), and only if the data's change flag
 * is still set. When n8n answers a delivery that starts an execution itself, n8n 2.x does that after
 * WorkflowRunner.run(), which builds a Workflow on the same static data object and so clears the
 * flag: the memory was never saved. Answered here (`noWebhookResponse`), n8n saves the static data
 * before it starts the execution, in 2.x and 1.x alike. The answer also leaves before the execution
 * starts, so the sender never waits for the workflow.
 */
export function startAnswered(context: IWebhookFunctions, items: INodeExecutionData[]): IWebhookResponseData {
	context.getResponseObject().status(200).json(STARTED_ANSWER);
	return { noWebhookResponse: true, workflowData: [items] };
}

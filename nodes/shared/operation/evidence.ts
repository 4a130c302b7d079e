import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { bodyHash } from '../responses/canonical-json';
import { boolean } from '../fields/rules';
import type { ApiRequest, ApiResponse, ValueField } from './operation-types';
import { PACKAGE_VERSION } from './package-version';
import { pairedIndexOf } from './simplify';

/**
 * Evidence beside every answer: what an auditor needs to show what was asked, when, and what came
 * back, built from what the node sent and received (the provider keeps no evidence of its own). Both
 * hashes are SHA-256 of RFC 8785 canonical JSON, so they can be recomputed from stored rows whatever a
 * database does to key order or spacing. Never a secret: the request is hashed with the credential's
 * values and the operation's secret fields cut out (an OTP code's hash would give the code away).
 */

/** The item's own members that are no part of the answer the hash covers. */
const BESIDE_THE_ANSWER = ['screeningSummary', 'evidence'];

export const evidenceOption: ValueField = {
	property: {
		displayName: 'Include Evidence',
		name: 'includeEvidence',
		type: 'boolean',
		default: true,
		description:
			'Whether to add `evidence` beside each answer: when it was asked and answered, the endpoint, the SHA-256 of the body sent and of the answer as output (RFC 8785 canonical JSON), sandbox or production, which account answered (a fingerprint, never the key or customer ID), the workflow, execution, node and package version. Never a secret. An AI model reads it only with Output Raw or when its fields are selected.',
	},
	rule: boolean(),
};

/** One request of an item and its answer, as evidence records it. */
export interface Exchange {
	requestedAt: string;
	respondedAt: string;
	endpoint: string;
	requestSha256: string;
}

/**
 * Sends one request of an item and records the exchange once it was answered: the times the
 * transport gives (when the answered sending left and its answer came; an answer given again under
 * Retry On Fail keeps its first times). `secretFree` cuts the secrets out of the request's canonical
 * JSON text, piece by piece, before it is hashed.
 */
export async function recorded(
	request: ApiRequest,
	secretFree: (text: string) => string,
	send: () => Promise<ApiResponse>,
	log: Exchange[],
): Promise<ApiResponse> {
	const askedAtMs = Date.now();
	const answer = await send();
	const iso = (ms: number | undefined, fallback: number) => new Date(ms ?? fallback).toISOString();
	log.push({
		requestedAt: iso(answer.sentAtMs, askedAtMs),
		respondedAt: iso(answer.answeredAtMs, Date.now()),
		endpoint: `${request.method} ${request.path}`,
		requestSha256: bodyHash(request.body ?? null, secretFree),
	});
	return answer;
}

/** An output item's answer: the item without the summary and evidence beside it. */
export function answerOf(json: IDataObject): IDataObject {
	const answer = { ...json };
	for (const name of BESIDE_THE_ANSWER) delete answer[name];
	return answer;
}

/** SHA-256 of the canonical JSON of an output item's answer. */
export function responseSha256(json: IDataObject): string {
	return bodyHash(answerOf(json));
}

/** Where an item was sent: the credential's environment and account (no secret), as evidence says it. */
export interface ItemAccount {
	environment: string;
	account: string;
}

/** What every evidence of one run shares. */
export function runAbout(ctx: IExecuteFunctions): IDataObject {
	const node = ctx.getNode();
	return {
		workflowId: ctx.getWorkflow().id ?? null,
		executionId: ctx.getExecutionId?.() ?? null,
		node: node.name,
		nodeVersion: node.typeVersion,
		packageVersion: PACKAGE_VERSION,
	};
}

/**
 * The items with their evidence beside each answer, hashed as output (after Simplify). Error items
 * and items whose input asked for none (Include Evidence off) are left as they are.
 */
export function withEvidence(
	items: INodeExecutionData[],
	exchanges: Array<Exchange[] | undefined>,
	accounts: Array<ItemAccount | undefined>,
	about: IDataObject,
): INodeExecutionData[] {
	return items.map((item) => {
		const itemIndex = pairedIndexOf(item);
		const log = exchanges[itemIndex];
		const account = accounts[itemIndex];
		if (!log?.length || !account || typeof item.json.error === 'string') return item;
		const [first, last] = [log[0], log[log.length - 1]];
		const evidence: IDataObject = {
			requestedAt: first.requestedAt,
			respondedAt: last.respondedAt,
			endpoint: first.endpoint,
			requestSha256: first.requestSha256,
			responseSha256: responseSha256(item.json),
			environment: account.environment,
			account: account.account,
			...about,
			// Paging: every request the item's answer was built from, in the order sent.
			...(log.length > 1 ? { requests: log.map((e) => ({ ...e }) as unknown as IDataObject) } : {}),
		};
		return { ...item, json: { ...item.json, evidence } };
	});
}

/** The json as an AI model reads it in Output Simplified: without the evidence. */
export function withoutEvidence(json: IDataObject): IDataObject {
	if (!('evidence' in json)) return json;
	const rest = { ...json };
	delete rest.evidence;
	return rest;
}

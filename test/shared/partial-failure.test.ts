/**
 * The report of a money or message run that failed or was stopped part way
 * (nodes/shared/operation/partial-failure.ts), one row per case: which items the API accepted (with
 * their receipt), which may have been carried out, which failed and which were never sent. No
 * emulator, no n8n: the items' results and errors are given.
 */
import { type IExecuteFunctions, type INode, type INodeExecutionData, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { type ItemFailure, partialFailure } from '../../nodes/shared/operation/partial-failure';
import { markMayHaveBeenCarriedOut } from '../../nodes/shared/transport/classify';

const node: INode = { id: '1', name: 'Payments', type: 'n8n-nodes-verification-services.verificationServices', typeVersion: 1, position: [0, 0], parameters: {} };
const ctx = { getNode: () => node } as unknown as IExecuteFunctions;
const deposit = { name: 'Challenge Deposit', receipt: 'transactionId' } as OperationDefinition;
const otp = { name: 'Send OTP' } as OperationDefinition;

const accepted = (transactionId?: string): INodeExecutionData[] => [{ json: transactionId ? { transactionId } : { status: 'ok' } }];
const http = (itemIndex: number, status: number, description = 'Try again later.') =>
	new NodeApiError(node, { message: 'x' } as JsonObject, { message: `Challenge Deposit failed with HTTP ${status}: boom`, description, httpCode: String(status), itemIndex });
const failure = (itemIndex: number, error: ItemFailure['error']): ItemFailure => ({ itemIndex, error });

interface Row {
	op: OperationDefinition;
	sent: number[];
	notSent: number[];
	failed: ItemFailure[];
	results: Record<number, INodeExecutionData[]>;
	cancelled?: boolean;
	message: string;
	description: string[];
	httpCode?: string;
	itemIndex: number;
}

const TURN_ON = 'Turn on "On Error: Continue (using error output)" to get the accepted items as output and the failed ones on the error output.';
const uncertain = markMayHaveBeenCarriedOut(http(2, 200, 'Check the result on the provider side.'), { answer: { transactionId: 't-3', state: '??' }, receipt: { path: 'transactionId', value: 't-3' } });

const rows: Array<[string, Row]> = [
	['the 3rd deposit of 5 failed: two accepted with receipts, two not sent', {
		op: deposit, sent: [0, 1, 2], notSent: [3, 4], failed: [failure(2, http(2, 500))], results: { 0: accepted('t-1'), 1: accepted('t-2') },
		message: 'Challenge Deposit failed for item 3; 2 items were already accepted by the API and 2 not sent',
		description: ['Accepted by the API, do not send again: item 1 (transactionId t-1), item 2 (transactionId t-2).', 'Failed: item 3: Challenge Deposit failed with HTTP 500: boom.', 'Not sent: item 4, item 5.', 'Try again later.', TURN_ON],
		httpCode: '500', itemIndex: 2,
	}],
	['the first deposit failed: none accepted', {
		op: deposit, sent: [0], notSent: [1], failed: [failure(0, http(0, 400, 'The API refused the request (HTTP 400), so it was not carried out.'))], results: {},
		message: 'Challenge Deposit failed for item 1; 0 items were already accepted by the API and 1 not sent',
		description: ['Accepted by the API, do not send again: none.', 'Failed: item 1: Challenge Deposit failed with HTTP 400: boom.', 'Not sent: item 2.', 'The API refused the request (HTTP 400), so it was not carried out.', TURN_ON],
		httpCode: '400', itemIndex: 0,
	}],
	['two failed while under way, listed in item order', {
		op: deposit, sent: [0, 1, 2], notSent: [], failed: [failure(2, http(2, 503)), failure(1, http(1, 500))], results: { 0: accepted('t-1') },
		message: 'Challenge Deposit failed for 2 items; 1 item was already accepted by the API and 0 not sent',
		description: ['Accepted by the API, do not send again: item 1 (transactionId t-1).', 'Failed: item 2: Challenge Deposit failed with HTTP 500: boom; item 3: Challenge Deposit failed with HTTP 503: boom.', 'Not sent: none.', 'Try again later.', TURN_ON],
		httpCode: '500', itemIndex: 1,
	}],
	['an accepted answer the node could not use: its receipt and answer', {
		op: deposit, sent: [0, 1, 2], notSent: [3], failed: [failure(2, uncertain)], results: { 0: accepted('t-1'), 1: accepted() },
		message: 'Challenge Deposit failed for item 3; 2 items were already accepted by the API and 1 not sent',
		description: ['Accepted by the API, do not send again: item 1 (transactionId t-1), item 2 (transactionId not in the answer).', 'May have been carried out, check with the provider before sending again: item 3 (transactionId t-3; the answer, redacted: {"transactionId":"t-3","state":"??"}).', 'Failed: item 3: Challenge Deposit failed with HTTP 200: boom.', 'Not sent: item 4.', 'Check the result on the provider side.', TURN_ON],
		httpCode: '200', itemIndex: 2,
	}],
	['a message cut after sending (no answer), an operation without receipt', {
		op: otp, sent: [0, 1], notSent: [2], failed: [failure(1, markMayHaveBeenCarriedOut(new NodeOperationError(node, 'Send OTP could not get an answer', { itemIndex: 1 })))], results: { 0: accepted() },
		message: 'Send OTP failed for item 2; 1 item was already accepted by the API and 1 not sent',
		description: ['Accepted by the API, do not send again: item 1.', 'May have been carried out, check with the provider before sending again: item 2.', 'Failed: item 2: Send OTP could not get an answer.', 'Not sent: item 3.', TURN_ON],
		itemIndex: 1,
	}],
	['a stopped execution: accepted and not sent, no advice on the error output', {
		op: deposit, sent: [0, 1], notSent: [2, 3], failed: [], results: { 0: accepted('t-1'), 1: accepted('t-2') }, cancelled: true,
		message: 'The execution was cancelled during Challenge Deposit; 2 items were already accepted by the API and 2 not sent',
		description: ['Accepted by the API, do not send again: item 1 (transactionId t-1), item 2 (transactionId t-2).', 'Not sent: item 3, item 4.'],
		itemIndex: 2,
	}],
];

describe('partialFailure', () => {
	it.each(rows)('%s', (_, row) => {
		const results: INodeExecutionData[][] = [];
		for (const [index, produced] of Object.entries(row.results)) results[Number(index)] = produced;
		const error = partialFailure(ctx, row.op, { sent: row.sent, notSent: row.notSent, failed: row.failed, results, cancelled: row.cancelled });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(row.message);
		expect(error.description?.split('\n')).toEqual(row.description);
		expect(error.httpCode ?? undefined).toBe(row.httpCode);
		expect((error.context as { itemIndex?: number }).itemIndex).toBe(row.itemIndex);
	});
});

import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { resources } from '../../nodes/VerificationServices/resources';
import { humanReviewRefusal } from '../../nodes/shared/operation/human-review';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { challengeDeposit } from '../../nodes/VerificationServices/payments/operations/challengeDeposit';
import { checkIndividual } from '../../nodes/VerificationServices/aml/operations/checkIndividual';
import { sendOtp } from '../../nodes/VerificationServices/phone/operations/sendOtp';
import { actionNode } from '../helpers/sandbox';

/** The actions, by resource: the list the README and the rule derive from (operation `effect`). */
const ACTIONS: Record<string, string[]> = {
	aml: ['registerIndividual', 'removeSearchProfile'],
	kyb: [],
	payments: ['challengeDeposit', 'initiatePayment'],
	document: ['startHostedJourney'],
	phone: ['sendOtp'],
	qes: ['configureWebhook', 'createSessionLink'],
	address: [],
	identity: [],
};

/**
 * A node execution context as n8n gives it to a tool node: its type, version and parameters, where the
 * call came from (execute data's source), the workflow's ai_tool wiring and the review node's run.
 */
interface Call {
	type?: string;
	parameters?: Record<string, unknown>;
	/** The node the engine ran this one for (the review node after approval, or the agent). */
	source?: string;
	/** Nodes wired as ai_tool into `source`. */
	toolsOfSource?: string[];
	sourceParams?: Record<string, unknown>;
	sourceExecuted?: boolean;
}
function contextFor(call: Call): IExecuteFunctions {
	const node = { name: 'Pay', type: call.type ?? 'pkg.verificationServicesTool', typeVersion: 1 } as INode;
	return {
		getNode: () => node,
		getNodeParameter: (name: string, _i: number, fallback: unknown) => call.parameters?.[name] ?? fallback,
		getExecuteData: () => ({ source: call.source ? { main: [{ previousNode: call.source }] } : null }),
		getParentNodes: (name: string, options?: { connectionType?: string }) =>
			name === call.source && options?.connectionType === 'ai_tool' ? (call.toolsOfSource ?? []).map((n) => ({ name: n })) : [],
		getWorkflowDataProxy: () => ({
			$: (name: string) => (name === call.source ? { isExecuted: call.sourceExecuted ?? true, params: call.sourceParams ?? {} } : {}),
		}),
	} as unknown as IExecuteFunctions;
}

const approved: Call = { source: 'Approve payment', toolsOfSource: ['Pay'], sourceParams: { operation: 'sendAndWait', message: 'ok?' } };

describe('human review of actions used as AI tools', () => {
	const refused = (op: OperationDefinition, call: Call) => humanReviewRefusal(contextFor(call), op)?.message;

	it.each([
		['a read is never gated', checkIndividual, { source: 'Agent', toolsOfSource: ['Pay'] }, false],
		['an action outside an agent runs as a node', challengeDeposit, { type: 'pkg.verificationServices' }, false],
		['an action wired straight to the agent is refused', challengeDeposit, { source: 'Agent', toolsOfSource: ['Pay'] }, true],
		['an action from an MCP Server Trigger (no source) is refused', challengeDeposit, {}, true],
		['an action approved by its review node runs', challengeDeposit, approved, false],
		['a review node this tool is not wired into does not count', challengeDeposit, { ...approved, toolsOfSource: ['Other tool'] }, true],
		['a parent that is no Send-and-Wait review (an agent) does not count', challengeDeposit, { ...approved, sourceParams: { promptType: 'define' } }, true],
		['a review node that has not run does not count', challengeDeposit, { ...approved, sourceExecuted: false }, true],
		['Run Without Human Review on: the builder accepted the risk', challengeDeposit, { source: 'Agent', toolsOfSource: ['Pay'], parameters: { runWithoutHumanReview: true } }, false],
		['Send OTP wired straight to the agent is refused', sendOtp, { source: 'Agent', toolsOfSource: ['Pay'] }, true],
	] as Array<[string, OperationDefinition, Call, boolean]>)('%s', (_name, op, call, isRefused) => {
		expect(refused(op, call) !== undefined).toBe(isRefused);
	});

	it('says what the action does, that nothing was sent, and how to allow it', () => {
		const error = humanReviewRefusal(contextFor({ source: 'Agent' }), challengeDeposit);
		expect(error?.message).toBe('Challenge Deposit was not run: this tool moves money, and no person approved this call. Nothing was sent.');
		expect(error?.description).toMatch(/^Tell the user that this action needs a person to approve it/);
		expect(error?.description).toMatch(/human review node .*or turn on "Run Without Human Review"/);
	});

	it('declares exactly the actions as actions, and the switch, off, only on their tool variant', () => {
		const switches = actionNode.description.properties.filter((p) => p.name === 'runWithoutHumanReview');
		for (const { value } of resources) {
			const own = switches.filter((p) => p.displayOptions?.show?.resource?.includes(value));
			const gated = own.flatMap((p) => p.displayOptions?.show?.operation as string[]);
			expect([value, gated]).toEqual([value, ACTIONS[value]]);
		}
		expect(switches.map((p) => [p.default, p.displayOptions?.show?.['@tool']])).toEqual(switches.map(() => [false, [true]]));
	});
});

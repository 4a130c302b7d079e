import type { IExecuteFunctions, INode, INodeType } from 'n8n-workflow';

import { VerificationAml } from '../../nodes/Aml/VerificationAml.node';
import { VerificationDocument } from '../../nodes/Document/VerificationDocument.node';
import { VerificationKyb } from '../../nodes/Kyb/VerificationKyb.node';
import { VerificationPayments } from '../../nodes/Payments/VerificationPayments.node';
import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';
import { VerificationQes } from '../../nodes/Qes/VerificationQes.node';
import { VerificationAddress } from '../../nodes/Address/VerificationAddress.node';
import { VerificationIdentity } from '../../nodes/Identity/VerificationIdentity.node';
import { humanReviewRefusal } from '../../nodes/shared/operation/human-review';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { challengeDeposit } from '../../nodes/Payments/operations/challengeDeposit';
import { checkIndividual } from '../../nodes/Aml/operations/checkIndividual';
import { sendOtp } from '../../nodes/Phone/operations/sendOtp';

/** The actions, by node: the list the README and the rule derive from (operation `effect`). */
const ACTIONS = {
	verificationAml: ['registerIndividual', 'removeSearchProfile'],
	verificationKyb: [],
	verificationPayments: ['challengeDeposit', 'initiatePayment'],
	verificationDocument: ['startHostedJourney'],
	verificationPhone: ['sendOtp'],
	verificationQes: ['configureWebhook', 'createSessionLink'],
	verificationAddress: [],
	verificationIdentity: [],
};
const NODES: INodeType[] = [
	new VerificationAml(),
	new VerificationKyb(),
	new VerificationPayments(),
	new VerificationDocument(),
	new VerificationPhone(),
	new VerificationQes(),
	new VerificationAddress(),
	new VerificationIdentity(),
];

/**
 * A node execution context as n8n gives it to a tool node: its type, version and parameters, where the
 * call came from (execute data's source), the workflow's ai_tool wiring and the review node's run.
 */
interface Call {
	type?: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	/** The node the engine ran this one for (the review node after approval, or the agent). */
	source?: string;
	/** Nodes wired as ai_tool into `source`. */
	toolsOfSource?: string[];
	sourceParams?: Record<string, unknown>;
	sourceExecuted?: boolean;
}
function contextFor(call: Call): IExecuteFunctions {
	const node = { name: 'Pay', type: call.type ?? 'pkg.verificationPaymentsTool', typeVersion: call.typeVersion ?? 2 } as INode;
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
		['an action outside an agent runs as a node', challengeDeposit, { type: 'pkg.verificationPayments' }, false],
		['an action wired straight to the agent is refused', challengeDeposit, { source: 'Agent', toolsOfSource: ['Pay'] }, true],
		['an action from an MCP Server Trigger (no source) is refused', challengeDeposit, {}, true],
		['an action approved by its review node runs', challengeDeposit, approved, false],
		['a review node this tool is not wired into does not count', challengeDeposit, { ...approved, toolsOfSource: ['Other tool'] }, true],
		['a parent that is no Send-and-Wait review (an agent) does not count', challengeDeposit, { ...approved, sourceParams: { promptType: 'define' } }, true],
		['a review node that has not run does not count', challengeDeposit, { ...approved, sourceExecuted: false }, true],
		['Run Without Human Review on: the builder accepted the risk', challengeDeposit, { source: 'Agent', toolsOfSource: ['Pay'], parameters: { runWithoutHumanReview: true } }, false],
		['version 1, saved before the rule, runs as it did', challengeDeposit, { typeVersion: 1 }, false],
		['version 1 with the switch turned off is refused', challengeDeposit, { typeVersion: 1, parameters: { runWithoutHumanReview: false } }, true],
		['Send OTP is gated from Phone version 3 on', sendOtp, { type: 'pkg.verificationPhoneTool', typeVersion: 3 }, true],
		['Phone version 2 keeps sending as saved', sendOtp, { type: 'pkg.verificationPhoneTool', typeVersion: 2 }, false],
	] as Array<[string, OperationDefinition, Call, boolean]>)('%s', (_name, op, call, isRefused) => {
		expect(refused(op, call) !== undefined).toBe(isRefused);
	});

	it('says what the action does, that nothing was sent, and how to allow it', () => {
		const error = humanReviewRefusal(contextFor({ source: 'Agent' }), challengeDeposit);
		expect(error?.message).toBe('Challenge Deposit was not run: this tool moves money, and no person approved this call. Nothing was sent.');
		expect(error?.description).toMatch(/^Tell the user that this action needs a person to approve it/);
		expect(error?.description).toMatch(/human review node .*or turn on "Run Without Human Review"/);
	});

	it('declares exactly the actions as actions, and the switch only on their tool variant', () => {
		for (const node of NODES) {
			const switches = node.description.properties.filter((p) => p.name === 'runWithoutHumanReview');
			const gated = [...new Set(switches.flatMap((p) => p.displayOptions?.show?.operation as string[]))];
			expect([node.description.name, gated]).toEqual([node.description.name, ACTIONS[node.description.name as keyof typeof ACTIONS]]);
			for (const p of switches) expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
			// Off from the version that introduced the rule, on before it (the saved workflows' behaviour).
			expect(switches.map((p) => [p.default, p.displayOptions?.show?.['@version']])).toEqual(
				switches.length ? [[false, [{ _cnd: { gte: expect.any(Number) } }]], [true, [{ _cnd: { lt: expect.any(Number) } }]]] : [],
			);
		}
	});

});

import {
	type IExecuteFunctions,
	type INodeProperties,
	NodeConnectionTypes,
	NodeOperationError,
} from 'n8n-workflow';

import type { OperationDefinition } from './operation-types';
import { runsAsTool } from './tool-output';

/**
 * Actions (operations with an `effect`: money, messages, the account's settings, a session for a
 * person) used as AI tools run only when a person approved the call, or when the builder turned on
 * Run Without Human Review. Reads are never gated.
 *
 * How a node knows its call was approved, from n8n 2.x's own sources: n8n's human-review nodes
 * (types ending in `HitlTool`, a Send-and-Wait channel turned into a review step) sit between the
 * tool and the AI Agent. The agent's model sees the gated tool, but calling it makes the agent run the
 * review node; only when the reviewer approved does the agent ask the engine to run the tool node, with
 * the review node as its parent (n8n-nodes-langchain agent-execution processHitlResponses: on
 * `approved === true` an engine request with `metadata.parentNodeName` = the review node; n8n-core
 * requests-response prepareRequestedNodesForExecution makes that the tool node's source). A denied or
 * timed-out review never runs the tool node; called straight from an agent, an MCP Server Trigger or
 * n8n 1.x, the tool's source is the agent or the trigger, never a review node.
 */

/** The parameter of the review rule: public once released. */
const RUN_WITHOUT_REVIEW = 'runWithoutHumanReview';

/** The Send-and-Wait operation that every review node carries (n8n's SEND_AND_WAIT_OPERATION). */
const SEND_AND_WAIT = 'sendAndWait';

/** The switch and its notice, shown only on the tool variant of the actions; off by default. */
export function humanReviewProperties(operations: OperationDefinition[]): INodeProperties[] {
	const actions = operations.filter((op) => op.effect).map((op) => op.value);
	if (!actions.length) return [];
	return [
		{
			displayName:
				'This tool acts on the world (it moves money, sends a message, changes the account or starts a session for a person). Unless Run Without Human Review is on, an AI agent runs it only after a person approves each call: connect it to the AI Agent (version 3 or later, n8n 2.6 or later) through a human review node, for example Email, Slack or Chat. Any other call is refused and nothing is sent.',
			name: 'humanReviewNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { '@tool': [true], operation: actions } },
		},
		{
			displayName: 'Run Without Human Review',
			name: RUN_WITHOUT_REVIEW,
			type: 'boolean',
			noDataExpression: true,
			default: false,
			displayOptions: { show: { '@tool': [true], operation: actions } },
			description:
				'Whether the AI model may run this action on its own, without a person approving each call. Only for trusted prompts: a model, or a prompt that steers it, could then pay, send messages or change the account by itself.',
		},
	];
}

/**
 * The error that refuses an action used as an AI tool without a person's approval, before anything is
 * sent; undefined when the call may run.
 */
export function humanReviewRefusal(
	ctx: IExecuteFunctions,
	op: OperationDefinition,
): NodeOperationError | undefined {
	if (!op.effect || !runsAsTool(ctx)) return undefined;
	if (ctx.getNodeParameter(RUN_WITHOUT_REVIEW, 0, false) === true) return undefined;
	if (approvedByReviewNode(ctx)) return undefined;
	return new NodeOperationError(
		ctx.getNode(),
		`${op.name} was not run: this tool ${op.effect.does}, and no person approved this call. Nothing was sent.`,
		{
			description:
				'Tell the user that this action needs a person to approve it in n8n, and do not call it again until they say it is approved. ' +
				'Builder: connect this tool to the AI Agent (version 3 or later, n8n 2.6 or later) through a human review node (Email, Slack, Chat and the other Send-and-Wait channels), ' +
				`or turn on "Run Without Human Review" in this node if you accept that the model alone decides when it ${op.effect.does}.`,
		},
	);
}

/** The call reached this node from a review node that this node is wired into and that has run. */
function approvedByReviewNode(ctx: IExecuteFunctions): boolean {
	const reviewer = ctx.getExecuteData?.()?.source?.main?.[0]?.previousNode;
	const self = ctx.getNode().name;
	if (!reviewer || reviewer === self) return false;
	try {
		const gated = ctx
			.getParentNodes(reviewer, { connectionType: NodeConnectionTypes.AiTool, depth: 1 })
			.some((node) => node.name === self);
		if (!gated) return false;
		const reviewNode = ctx.getWorkflowDataProxy(0).$(reviewer) as {
			isExecuted?: boolean;
			params?: { operation?: unknown };
		};
		return reviewNode.isExecuted === true && reviewNode.params?.operation === SEND_AND_WAIT;
	} catch {
		// An n8n without these helpers, or a source that is no node: not approved.
		return false;
	}
}

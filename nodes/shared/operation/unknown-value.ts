import { type INode, NodeOperationError } from 'n8n-workflow';

/**
 * A stored parameter value this version of the package does not know (a workflow saved with another
 * version, or edited by hand), `described` as `source "x"`: refused before anything runs, by the action node and the trigger alike.
 */
export function unknownValue(node: INode, described: string, known: string[]): NodeOperationError {
	return new NodeOperationError(node, `Unknown ${described}`, {
		description: `This version of the package knows ${known.map((v) => `"${v}"`).join(', ')}: choose one in the node, or install the version of the package the workflow was saved with. Nothing was sent.`,
	});
}

import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { VerificationServices } from '../../nodes/VerificationServices/VerificationServices.node';
import type { RunOptions, Sandbox, SandboxRunResult } from './sandbox';

/** The action node; it keeps no state between runs, so one instance serves a whole test file. */
export const actionNode = new VerificationServices();

/** The action node as n8n gives it to an AI agent: the type `<package>.verificationServicesTool` (runsAsTool). */
export const actionTool: INodeType = Object.create(actionNode) as INodeType;
actionTool.description = { ...actionNode.description, name: 'verificationServicesTool' };

/** Runs the action node on one resource against the emulator: `resource` joins every run's parameters. */
export function resourceRun(sandbox: () => Sandbox, resource: string) {
	return async (parameters: INodeParameters, options?: RunOptions): Promise<SandboxRunResult> =>
		await sandbox().run(actionNode, { resource, ...parameters }, options);
}

/** The action node's property of this name shown for the resource and operation (whatever else it depends on). */
export function propertyOf(resource: string, operation: string, name: string): INodeProperties {
	const found = actionNode.description.properties.find(
		(p) =>
			p.name === name &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
			(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
	);
	if (!found) throw new Error(`No property ${name} for ${resource}.${operation}`);
	return found;
}

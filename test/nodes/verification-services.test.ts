import { type INode, type INodeProperties, Workflow } from 'n8n-workflow';

import { resources } from '../../nodes/VerificationServices/resources';
import { simplifier } from '../../nodes/shared/operation/simplify';
import { actionNode, useSandbox } from '../helpers/sandbox';
import { HarnessNodeTypes, nodeTypeName } from '../helpers/node-types';

const emulator = useSandbox();
const { description } = actionNode;
const pickers = (name: string) => description.properties.filter((p) => p.name === name);

/** The subtitle n8n's editor shows under the node with these parameters (its expression, evaluated by n8n). */
function subtitleFor(parameters: Record<string, string>): unknown {
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.add(actionNode);
	const node: INode = { id: '1', name: 'IDCanopy Umbrella', type: nodeTypeName(actionNode), typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, String(description.subtitle), 'internal', {});
}

describe('the action node (IDCanopy Umbrella)', () => {
	it('is one node with the shared credential, usable as an AI tool, with its light and dark icon', () => {
		expect([description.name, description.displayName, description.version, description.usableAsTool]).toEqual(['verificationServices', 'IDCanopy Umbrella', 1, true]);
		expect(description.credentials).toEqual([{ name: 'verificationServicesApi', required: true }]);
		expect(description.icon).toEqual({ light: 'file:../../icons/verification.svg', dark: 'file:../../icons/verification.dark.svg' });
	});

	it('has one Resource picker with the eight API groups, in order', () => {
		const [resource] = pickers('resource');
		expect(pickers('resource')).toHaveLength(1);
		expect(resource).toMatchObject({ displayName: 'Resource', type: 'options', noDataExpression: true, default: 'aml' });
		expect(resource.displayOptions).toBeUndefined();
		expect(resource.options!.map((o) => (o as { value: string }).value)).toEqual(['aml', 'kyb', 'payments', 'document', 'phone', 'qes', 'address', 'identity']);
	});

	it("has one Operation picker per resource, with its table's operations and their action labels", () => {
		const operations = pickers('operation');
		expect(operations.map((p) => p.displayOptions)).toEqual(resources.map((r) => ({ show: { resource: [r.value] } })));
		operations.forEach((picker, i) => {
			const { operations: table } = resources[i];
			expect(picker).toMatchObject({ type: 'options', noDataExpression: true, default: table[0].value });
			expect(picker.options).toEqual(table.map((op) => ({ name: op.name, value: op.value, action: op.action, description: op.description })));
			for (const op of table) expect(op.action).toMatch(/^[A-Z]/);
		});
	});

	// n8n's UX guideline: Simplify is a boolean, on by default; the model reads the Tool variant's Output instead.
	it("has no version gate: Simplify is n8n's switch, on by default wherever it is offered, not on the Tool variant, and nothing depends on @version", () => {
		const simplify = pickers('simple');
		expect(simplify.length).toBeGreaterThan(0);
		for (const p of simplify) {
			expect(p).toMatchObject({ displayName: 'Simplify', type: 'boolean', default: true, description: 'Whether to return a simplified version of the response instead of the raw data' });
			expect(p.displayOptions?.hide).toEqual({ '@tool': [true] });
		}
		const offered = resources.flatMap((r) => r.operations.filter((op) => simplifier(op)).map((op) => `${r.value} ${op.value}`));
		expect(simplify.flatMap((p) => p.displayOptions!.show!.operation!.map((op) => `${String(p.displayOptions!.show!.resource)} ${String(op)}`))).toEqual(offered);
		const gated = (p: INodeProperties) => JSON.stringify(p.displayOptions ?? {}).includes('@version');
		expect(description.properties.filter(gated).map((p) => p.name)).toEqual([]);
	});

	it('names the chosen action under the node: the resource picks among operations of the same value', () => {
		expect(subtitleFor({ resource: 'address', operation: 'verify' })).toBe('Verify an address');
		expect(subtitleFor({ resource: 'identity', operation: 'verify' })).toBe('Verify an identity');
		for (const { value, operations } of resources) {
			for (const op of operations) expect(subtitleFor({ resource: value, operation: op.value })).toBe(op.action);
		}
	});

	it('has every list method a property loads its options from (Country, Currency), and no other', () => {
		const used = new Set(JSON.stringify(description.properties).match(/"loadOptionsMethod":"\w+"/g)!.map((m) => m.split('"')[3]));
		expect([...used].sort()).toEqual(['getCountries', 'getCurrencies']);
		expect(Object.keys(actionNode.methods.loadOptions).sort()).toEqual([...used].sort());
	});
});

describe('the action node runs the operation of the chosen resource', () => {
	it("another resource's operation fails, naming the resource and operation, before anything is sent", async () => {
		const { error } = await emulator().run(actionNode, { resource: 'address', operation: 'checkIndividual' });
		expect(error?.message).toBe('Unknown operation "checkIndividual" of resource "address"');
		expect((await emulator().stats()).total).toBe(0);
	});

	// n8n keeps no Operation for a resource the node does not list.
	it('an unknown resource fails, naming it, before anything is sent', async () => {
		const { error } = await emulator().run(actionNode, { resource: 'crm', operation: 'verify' });
		expect(error?.message).toBe('Unknown resource "crm"');
		expect((await emulator().stats()).total).toBe(0);
	});
});

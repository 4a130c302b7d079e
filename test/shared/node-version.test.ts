/**
 * A breaking change as CONTRIBUTING.md says ("A breaking change is a new node version"), followed step
 * by step on a copy of the action node: version 2 changes one field of KYB Search Companies (the company
 * name, now sent in capitals: a field of the same name shown from version 2 on) and drops another
 * (the registration number, hidden from version 2). A workflow saved at version 1 runs as before;
 * one saved at version 2 reads the changed field and not the dropped one.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { nodeProperties } from '../../nodes/shared/operation/node-properties';
import type { OperationDefinition, ResourceDefinition, ValueField } from '../../nodes/shared/operation/operation-types';
import { runOperations } from '../../nodes/shared/operation/run-operations';
import { text } from '../../nodes/shared/fields/rules';
import { VerificationServices } from '../../nodes/VerificationServices/VerificationServices.node';
import { resources } from '../../nodes/VerificationServices/resources';
import { useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();

// Step 2: version 1's parameters stay as they are, hidden from version 2 where version 2 changes or drops them.
const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };
const kyb = resources.find((r) => r.value === 'kyb')!;
const search = kyb.operations.find((op) => op.value === 'search')!;
const versioned = (field: ValueField, displayOptions: IDisplayOptions): ValueField => ({ ...field, property: { ...field.property, displayOptions } });
const searchV2: OperationDefinition = {
	...search,
	fields: [
		...(search.fields as ValueField[]).map((field) => (['name', 'registrationNumber'].includes(field.property.name) ? versioned(field, { hide: FROM_VERSION_2 }) : field)),
		{ ...versioned(search.fields[0] as ValueField, { show: FROM_VERSION_2 }), rule: text({ normalize: (value) => value.trim().toUpperCase() }) },
	],
};
const resourcesV2: ResourceDefinition[] = resources.map((r) => (r === kyb ? { ...kyb, operations: kyb.operations.map((op) => (op === search ? searchV2 : op)) } : r));

// Step 1: the node declares both versions, so that workflows saved at version 1 keep loading.
class VerificationServicesV2 implements INodeType {
	description: INodeTypeDescription = { ...new VerificationServices().description, version: [1, 2], usableAsTool: true, properties: nodeProperties(resourcesV2) };
	methods = new VerificationServices().methods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, resourcesV2);
	}
}

const saved = { resource: 'kyb', operation: 'search', name: ' Acme ', registrationNumber: 'HRB 123456' };

describe('a new node version, as CONTRIBUTING says', () => {
	it('a workflow saved at version 1 sends what it sent before: the field as it was, the field version 2 drops', async () => {
		const run = await emulator().run(new VerificationServicesV2(), saved, { typeVersion: 1 });
		expect(run.error).toBeUndefined();
		const before = await emulator().run(new VerificationServices(), saved);
		expect(before.error).toBeUndefined();
		const [v1, today] = await emulator().bodies('POST /kyb/search');
		expect(v1).toEqual(today);
		expect(v1).toMatchObject({ registrationNumber: 'HRB 123456' });
	});

	it('a workflow saved at version 2 reads the changed field and not the dropped one', async () => {
		const run = await emulator().run(new VerificationServicesV2(), saved, { typeVersion: 2 });
		expect(run.error).toBeUndefined();
		expect(await emulator().bodies('POST /kyb/search')).toEqual([{ name: 'ACME' }]);
	});
});

import type { INodeType } from 'n8n-workflow';

import { addressOperations } from '../../nodes/Address/operations';
import { amlOperations } from '../../nodes/Aml/operations';
import { documentOperations } from '../../nodes/Document/operations';
import { identityOperations } from '../../nodes/Identity/operations';
import { kybOperations } from '../../nodes/Kyb/operations';
import { paymentsOperations } from '../../nodes/Payments/operations';
import { phoneOperations } from '../../nodes/Phone/operations';
import { qesOperations } from '../../nodes/Qes/operations';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { requestSettings } from '../../nodes/shared/transport/request-settings';

/**
 * What the request path relies on in every operation table, checked for operations added later too:
 * a table that breaks one of these would send a field under a wrong name, leave a path placeholder
 * unfilled, or show the editor a parameter the request never reads.
 */
const tables: Record<string, OperationDefinition[]> = {
	aml: amlOperations,
	kyb: kybOperations,
	payments: paymentsOperations,
	document: documentOperations,
	phone: phoneOperations,
	qes: qesOperations,
	address: addressOperations,
	identity: identityOperations,
};
const operations = Object.entries(tables).flatMap(([node, ops]) => ops.map((op) => [`${node}.${op.value}`, op] as const));

describe.each(operations)('operation table %s', (_name, op) => {
	const valueFields = op.fields.filter((f) => f.rule !== undefined);

	it('names each parameter once, and no field takes the name of an Options entry', () => {
		const names = [...op.fields, ...(op.options ?? []), ...requestSettings].map((f) => f.property.name);
		expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
	});

	it('fills every path placeholder from a path field, and every path field has its placeholder', () => {
		const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
		const pathFields = valueFields.filter((f) => f.location === 'path').map((f) => f.property.name).sort();
		expect(pathFields).toEqual(placeholders);
	});

	it('marks no additional field or Option as required, and gives every value a rule', () => {
		const optional = [...valueFields.filter((f) => f.additional), ...(op.options ?? [])];
		expect(optional.filter((f) => f.property.required).map((f) => f.property.name)).toEqual([]);
		expect(op.fields.filter((f) => !f.rule && f.property.type !== 'notice').map((f) => f.property.name)).toEqual([]);
	});

	it('shows fields only on conditions of parameters of the same operation', () => {
		const names = new Set(op.fields.map((f) => f.property.name));
		const conditions = op.fields.flatMap((f) => Object.keys(f.property.displayOptions?.show ?? {}));
		expect(conditions.filter((name) => !names.has(name))).toEqual([]);
	});

	it('names only fields of the operation in its hints, and never a secret one', () => {
		const known = new Set(valueFields.filter((f) => !f.secret).map((f) => f.property.name));
		const named = Object.values(op.hints ?? {}).flatMap((text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
		expect(named.filter((name) => !known.has(name))).toEqual([]);
	});
});

describe('node descriptions', () => {
	it('show every operation field, with its rule as the end of its description', async () => {
		const { VerificationPhone } = await import('../../nodes/Phone/VerificationPhone.node');
		const node: INodeType = new VerificationPhone();
		const phoneNumber = node.description.properties.find((p) => p.name === 'phoneNumber')!;
		expect(phoneNumber.description).toMatch(/ Must be 6 to 20 digits \(international format without \+, e\.g\. 436501234567\)\.$/);
		expect(phoneNumber.displayOptions?.show).toEqual({ operation: ['sendOtp'], method: ['sms'] });
	});
});

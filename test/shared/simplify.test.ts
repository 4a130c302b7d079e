import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';
import { getRiskScore } from '../../nodes/Phone/operations/getRiskScore';
import { runNode } from '../helpers/n8n';
import { useSandbox } from '../helpers/sandbox';

// n8n's UX guideline: an operation whose answer has more than ten fields offers "Simplify" (at most ten
// fields, on by default), the full answer one switch away. On by default changes what a saved workflow
// outputs (n8n fills in defaults when it loads one), so Simplify comes with node version 2; version 1
// keeps the whole answer (the golden workflows hold version 1 to it).

const sandbox = useSandbox();
const riskScore = { operation: 'getRiskScore', phoneNumber: '+436501234567' };

async function run(parameters: INodeParameters, typeVersion: number) {
	return await runNode({
		node: new VerificationPhone(),
		parameters,
		typeVersion,
		credentials: { verificationServicesApi: sandbox().credentials },
		credentialTypes: sandbox().credentialTypes,
	});
}

const leaves = (o: IDataObject): number =>
	Object.values(o).reduce<number>((n, v) => n + (v && typeof v === 'object' && !Array.isArray(v) ? leaves(v as IDataObject) : 1), 0);

describe('Simplify (Phone Verification lookups)', () => {
	it('is n8n’s boolean, on by default, from node version 2, on the lookups whose answer has more than ten fields', () => {
		const node = new VerificationPhone();
		expect(node.description.version).toEqual([1, 2, 3]);
		const simple = node.description.properties.find((p) => p.name === 'simple') as INodeProperties;
		expect(simple).toMatchObject({ displayName: 'Simplify', type: 'boolean', default: true, description: 'Whether to return a simplified version of the response instead of the raw data' });
		expect(simple.displayOptions?.show?.operation).toEqual(['getPhoneStatus', 'getPhoneId', 'getRiskScore', 'getFullIntelligence']);
		expect(simple.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
		expect(simple.displayOptions?.hide?.['@tool']).toEqual([true]);
	});

	it('version 2 gives at most ten fields by default, the whole answer with Simplify off', async () => {
		const simplified = await run(riskScore, 2);
		const raw = await run({ ...riskScore, simple: false }, 2);
		expect(simplified.error).toBeUndefined();
		const [item] = simplified.items;
		expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
		const summary = getRiskScore.toolSummary!(raw.items[0].json);
		// Each request gets its own referenceId from the emulator.
		expect(item.json).toEqual({ ...summary, lookup: { ...(summary.lookup as IDataObject), referenceId: expect.any(String) } });
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(leaves(raw.items[0].json)).toBeGreaterThan(10);
	});

	it('version 1 keeps the whole answer, as workflows saved with it expect', async () => {
		const v1 = await run(riskScore, 1);
		const raw = await run({ ...riskScore, simple: false }, 2);
		expect(Object.keys(v1.items[0].json).sort()).toEqual(Object.keys(raw.items[0].json).sort());
		expect(leaves(v1.items[0].json)).toBeGreaterThan(10);
	});
});

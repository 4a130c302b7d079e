import type { INodeProperties } from 'n8n-workflow';

import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';

// n8n's UX guideline: an operation whose answer has more than ten fields offers "Simplify" (at most ten
// fields, on by default), the full answer one switch away. On by default changes what a saved workflow
// outputs (n8n fills in defaults when it loads one), so Simplify comes with node version 2; version 1
// keeps the whole answer. The golden workflows hold both: phone-v2-simplify.json (version 2, Simplify on
// and off) and risk-score.json (version 1, the whole answer).

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
});

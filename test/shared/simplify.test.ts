import { propertyOf } from '../helpers/action-node';

// n8n's UX guideline: an operation whose answer has more than ten fields offers "Simplify" (at most ten
// fields, on by default), the full answer one switch away. The golden workflows hold both:
// phone-v2-simplify.json (Simplify on and off) and risk-score.json (the whole answer).

describe('Simplify (Phone Verification lookups)', () => {
	it('is n8n’s boolean, on by default, on the lookups whose answer has more than ten fields, not on the tool variant', () => {
		const simple = propertyOf('phone', 'getPhoneStatus', 'simple');
		expect(simple).toMatchObject({ displayName: 'Simplify', type: 'boolean', default: true, description: 'Whether to return a simplified version of the response instead of the raw data' });
		expect(simple.displayOptions?.show).toEqual({ resource: ['phone'], operation: ['getPhoneStatus', 'getPhoneId', 'getRiskScore', 'getFullIntelligence'] });
		expect(simple.displayOptions?.hide).toEqual({ '@tool': [true] });
	});
});

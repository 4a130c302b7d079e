import { member, payloadOf, readAnswer } from '../../nodes/shared/envelope';

// The same Send OTP answer in the API's generations (un-enveloped snake_case, un-enveloped camelCase, enveloped).
const g1 = { reference_id: 'r1', status: { code: 3901, description: 'Request in progress' } };
const g2 = { referenceId: 'r2', status: { code: 3901, description: 'Request in progress' }, state: 'CREATED' };
const g3 = { status: true, data: { referenceId: 'r3', state: 'CREATED', status: { code: 3901, description: 'Request in progress' } } };

describe('envelope reader', () => {
	it.each([
		['g1', g1, 'r1'],
		['g2', g2, 'r2'],
		['g3', g3, 'r3'],
	])('finds referenceId and status.code in the %s answer', (_, body, referenceId) => {
		expect(readAnswer(body, 'referenceId')).toBe(referenceId);
		expect(readAnswer(body, 'status.code')).toBe(3901);
	});

	it('reads a member the envelope keeps outside data (KYB details: status "success" beside data.company)', () => {
		const body = { status: 'success', data: { company: { legal_name: 'ACME' } } };
		expect(readAnswer(body, 'status')).toBe('success');
		expect(readAnswer(body, 'company.legalName')).toBe('ACME');
	});

	it('prefers camelCase when both twins are present, and reads nothing from non-objects', () => {
		expect(member({ phoneType: 'a', phone_type: 'b' }, 'phoneType')).toBe('a');
		expect(member({ phone_type: 'b' }, 'phoneType')).toBe('b');
		expect(readAnswer('<html>', 'status')).toBeUndefined();
		expect(readAnswer(null, 'status.code')).toBeUndefined();
		expect(payloadOf([1, 2])).toBeUndefined();
	});

	it('treats a data member that is not an object as part of the payload', () => {
		const body = { data: [1, 2], totalHits: 0 };
		expect(payloadOf(body)).toBe(body);
		expect(readAnswer(body, 'totalHits')).toBe(0);
	});
});

import { checkResponse, decodeBytes } from '../../nodes/shared/transport/response-check';
import { member, payloadOf, reportsError, valueAt } from '../../nodes/shared/responses/envelope';

// The same Send OTP answer in the API's generations (un-enveloped snake_case, un-enveloped camelCase, enveloped).
const g1 = { reference_id: 'r1', status: { code: 3901, description: 'Request in progress' } };
const g2 = { referenceId: 'r2', status: { code: 3901, description: 'Request in progress' }, state: 'CREATED' };
const g3 = { status: true, data: { referenceId: 'r3', state: 'CREATED', status: { code: 3901, description: 'Request in progress' } } };

const json = (body: unknown, contentType = 'application/json') => ({ statusCode: 200, headers: { 'content-type': contentType }, body });

describe('the one answer reader', () => {
	it.each([
		['g1', g1, 'r1'],
		['g2', g2, 'r2'],
		['g3', g3, 'r3'],
	])('finds referenceId and status.code in the %s answer by one generation-neutral name', (_, body, referenceId) => {
		expect(valueAt(body, 'referenceId')).toBe(referenceId);
		expect(valueAt(body, 'status.code')).toBe(3901);
	});

	it('reads a member the envelope keeps outside data (KYB details: status "success" beside data.company)', () => {
		const body = { status: 'success', data: { company: { legal_name: 'ACME' } } };
		expect(valueAt(body, 'status')).toBe('success');
		expect(valueAt(body, 'company.legalName')).toBe('ACME');
	});

	it('prefers camelCase when both twins are present, and reads nothing from non-objects', () => {
		expect(member({ phoneType: 'a', phone_type: 'b' }, 'phoneType')).toBe('a');
		expect(member({ phone_type: 'b' }, 'phoneType')).toBe('b');
		expect(valueAt('<html>', 'status')).toBeUndefined();
		expect(valueAt(null, 'status.code')).toBeUndefined();
		expect(valueAt([{ referenceId: 'x' }], 'referenceId')).toBeUndefined();
		expect(payloadOf([1, 2])).toBeUndefined();
	});

	it('treats a data member that is not an object as part of the payload', () => {
		const body = { data: [1, 2], totalHits: 0 };
		expect(payloadOf(body)).toBe(body);
		expect(valueAt(body, 'totalHits')).toBe(0);
	});

	it('falls back to the top level when data holds the member empty', () => {
		expect(valueAt({ referenceId: 'top', data: { referenceId: null } }, 'referenceId')).toBe('top');
		expect(valueAt({ data: { referenceId: '' } }, 'referenceId')).toBe('');
	});

	it('knows an answer that reports an error from one that does not', () => {
		expect(reportsError({ error: 'Invalid countries' })).toBe(true);
		expect(reportsError({ status: false, message: 'failed' })).toBe(true);
		expect(reportsError({ status: true, data: { error: 'Invalid countries' } })).toBe(true);
		expect(reportsError({ error: false, message: 'Countries fetched successfully', data: {} })).toBe(false);
		expect(reportsError({ error: '', matchFound: false })).toBe(false);
		expect(reportsError({ status: 'success', data: {} })).toBe(false);
	});
});

describe('expectations read through the reader', () => {
	it.each([
		['g1', g1],
		['g2', g2],
		['g3', g3],
	])('oneOf referenceId holds for the %s answer', (_, body) => {
		expect(checkResponse(json(body), { oneOf: ['referenceId'] })).toEqual({ trusted: true, body });
	});

	it('result: a non-empty payload without an error, whichever shape', () => {
		const result = { result: true };
		expect(checkResponse(json({ matchFound: false }), result).trusted).toBe(true);
		expect(checkResponse(json({ status: true, data: { timestamp: 't', totalHits: 0, foundRecords: [] } }), result).trusted).toBe(true);
		for (const body of [{}, { status: true }, { status: true, data: {} }, { error: 'Invalid countries' }, { status: false, message: 'x' }, []]) {
			expect(checkResponse(json(body), result)).toMatchObject({ trusted: false, expected: 'a result (a non-empty JSON object without an error)' });
		}
		expect(checkResponse(json('<html>maintenance</html>', 'text/html'), result)).toEqual({
			trusted: false,
			expected: 'a result (a non-empty JSON object without an error)',
			arrived: 'text/html, starting "<html>maintenance</html>"',
			body: '<html>maintenance</html>',
		});
	});

	it('jsonOrFile: a file stays bytes, JSON is parsed, HTML and an empty answer are refused', () => {
		const pdf = Buffer.from('%PDF-1.4 ...');
		expect(checkResponse(json(pdf, 'application/pdf'), { body: 'jsonOrFile' })).toEqual({ trusted: true, body: pdf });
		const decoded = decodeBytes(Buffer.from('{"status":true,"data":{"entry":1}}'), 'application/json');
		expect(checkResponse(json(decoded), { body: 'jsonOrFile' })).toEqual({ trusted: true, body: { status: true, data: { entry: 1 } } });
		expect(checkResponse(json(Buffer.from('<html>'), 'text/html'), { body: 'jsonOrFile' }).trusted).toBe(false);
		expect(checkResponse(json(Buffer.alloc(0), 'application/pdf'), { body: 'jsonOrFile' })).toMatchObject({
			trusted: false,
			arrived: 'an empty body (application/pdf)',
		});
		expect(decodeBytes(Buffer.from('not json'), 'application/json')).toBe('not json');
		expect(decodeBytes(Buffer.from('plain'), 'text/plain')).toBe('plain');
	});
});

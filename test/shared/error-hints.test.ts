import { checkOtp } from '../../nodes/VerificationServices/phone/operations/checkOtp';
import { sendOtp } from '../../nodes/VerificationServices/phone/operations/sendOtp';
import { fieldLabel } from '../../nodes/shared/operation/field-labels';
import { text } from '../../nodes/shared/fields/rules';
import type { ErrorHints, FieldValues, OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { itemHints } from '../../nodes/shared/operation/item-error';
import { AUTH_HINT, apiMessage, refusalHint } from '../../nodes/shared/transport/errors';

/** What an error says and what it tells the user to do, from plain function calls. */

describe('apiMessage: where the API generations put the reason of a refusal', () => {
	it.each([
		[{ error: 'Too Many Requests', message: 'Rate limit exceeded', code: '429' }, 'Too Many Requests: Rate limit exceeded'],
		[{ error: 'Same', message: 'Same' }, 'Same'],
		[{ error: 'Invalid securityFactor' }, 'Invalid securityFactor'],
		[{ error: false, message: 'Company not found' }, 'Company not found'],
		[{ error: '  ', message: 'Blank error skipped' }, 'Blank error skipped'],
		[{ status: false, data: { message: 'countries is required' } }, 'countries is required'],
		[{ status: false, data: { error: 'referenceId unknown' } }, 'referenceId unknown'],
		[{ data: { message: 'first', error: 'second' } }, 'first'],
		[{ status: true, data: { status: { code: 3905, description: 'Invalid OTP' } } }, 'Invalid OTP'],
		[{ status: { code: 404, description: 'Not found' } }, 'Not found'],
		['  Bad Gateway ', 'Bad Gateway'],
		['   ', undefined],
		[{ code: 1 }, undefined],
		[{ message: 42 }, undefined],
		[null, undefined],
		[['error'], undefined],
	])('%j says %p', (body, said) => {
		expect(apiMessage(body)).toBe(said);
	});
});

const withHints = (hints: ErrorHints | undefined, fields: OperationDefinition['fields'] = []): OperationDefinition => ({
	value: 'op',
	name: 'Op',
	action: 'Op',
	description: 'Op',
	method: 'GET',
	path: '/op',
	repeatable: true,
	fields,
	hints,
});
const textField = (name: string, secret = false) => ({ property: { displayName: name, name, type: 'string' as const, default: '' }, rule: text(), secret });

describe('itemHints: the operation hints with the item values filled in', () => {
	it.each<[string, OperationDefinition, FieldValues, ErrorHints | undefined]>([
		['an operation without hints', sendOtp, { phoneNumber: '436501234567' }, undefined],
		['a secret field stays a placeholder', withHints({ 400: 'code {code} for {id}' }, [textField('id'), textField('code', true)]), { id: 'a', code: '123456' }, { 400: 'code {code} for a' }],
		['a value the item does not have stays a placeholder', withHints({ 404: 'no {id}', notFound: 'none' }, [textField('id')]), {}, { 404: 'no {id}', notFound: 'none' }],
		['numbers and every occurrence are filled', withHints({ 409: '{n} and {n}' }, [textField('n')]), { n: 7 }, { 409: '7 and 7' }],
	])('%s', (_name, op, values, hints) => {
		expect(itemHints(op, values)).toEqual(hints);
	});
});

describe('fieldLabel: how an error names a parameter', () => {
	it.each<[string, 'sendOtp' | 'checkOtp', string]>([
		['phoneNumber', 'sendOtp', 'Phone Number'],
		['securityFactor', 'sendOtp', 'Security Factor (Custom OTP)'],
		['cleanPhoneNumber', 'sendOtp', 'Clean Phone Number'],
		['maxRequestsPerSecond', 'sendOtp', 'Max Requests per Second'],
		['timeoutSeconds', 'sendOtp', 'Timeout (Seconds)'],
		['securityFactor', 'checkOtp', 'Security Factor (Code)'],
		['unknownName', 'sendOtp', 'unknownName'],
	])('%s of %s is "%s"', (name, op, label) => {
		expect(fieldLabel({ sendOtp, checkOtp }[op], name)).toBe(label);
	});
});

describe('the general hint of each refusal (when the operation has none of its own)', () => {
	const refused = (statusCode: number, repeatable = true, hints?: ErrorHints, body: unknown = { message: 'why' }) => refusalHint(statusCode, body, repeatable, hints);

	it.each<[number, string | RegExp]>([
		[400, 'The API refused the values sent: check the field named in the message.'],
		[401, AUTH_HINT],
		[403, /^Your account may not use this operation/],
		[404, /^Check the id you passed/],
		[422, 'The API refused the values sent: check the field named in the message.'],
		[429, /^The rate limit was still exceeded after all retries/],
		[500, /^The API failed on its side/],
		[502, /^The API failed on its side/],
		[503, /^The API is temporarily unavailable/],
	])('HTTP %s', (status, hint) => {
		expect(refused(status)).toEqual(typeof hint === 'string' ? hint : expect.stringMatching(hint));
	});

	it.each<[string, string, string | RegExp]>([
		['the operation hint of the status wins', refused(400, true, { 400: 'own 400' }), 'own 400'],
		['notFound answers a 404', refused(404, true, { notFound: 'own not found' }), 'own not found'],
		['notFound answers a 4xx that says "not found"', refused(400, true, { notFound: 'own not found' }, { message: 'Session not found' }), 'own not found'],
		['a 4xx to a money operation says it was not carried out', refused(400, false), 'The API refused the request (HTTP 400), so it was not carried out. The API refused the values sent: check the field named in the message.'],
		['a 5xx to a money operation says it may have been carried out', refused(500, false), /^The API may have received and carried out this request .* The API failed on its side/],
		['a 401 to a money operation: only the credential hint', refused(401, false), AUTH_HINT],
	])('%s', (_name, description, hint) => {
		expect(description).toEqual(typeof hint === 'string' ? hint : expect.stringMatching(hint));
	});
});

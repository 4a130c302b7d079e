import { FieldError } from '../../nodes/shared/fields/field-error';
import { text } from '../../nodes/shared/fields/rules';
import { buildRequest, fillPath } from '../../nodes/shared/operation/build-request';
import type { FieldValues, OperationDefinition, ValueField } from '../../nodes/shared/operation/operation-types';
import { getVerification } from '../../nodes/VerificationServices/qes/operations/getVerification';

/** Path filling and request building are plain functions of the table entry and the item's values. */

describe('fillPath: {name} placeholders, URL-encoded, never leaving their segment', () => {
	it.each<[string, FieldValues, string]>([
		['/sessions/{id}', { id: 'abc-123' }, '/sessions/abc-123'],
		['/sessions/{id}', { id: ' abc ' }, '/sessions/abc'],
		['/sessions/{id}', { id: 42 }, '/sessions/42'],
		['/sessions/{id}', { id: 'a b' }, '/sessions/a%20b'],
		['/sessions/{id}', { id: '../admin' }, '/sessions/..%2Fadmin'],
		['/sessions/{id}', { id: 'x/../y' }, '/sessions/x%2F..%2Fy'],
		['/sessions/{id}', { id: '?all=1#top' }, '/sessions/%3Fall%3D1%23top'],
		['/sessions/{id}', { id: 'äöü' }, '/sessions/%C3%A4%C3%B6%C3%BC'],
		['/sessions/{id}', { id: '...' }, '/sessions/...'],
		['/a/{first}/b/{second}', { first: 'x', second: 'y' }, '/a/x/b/y'],
		['/no/placeholders', { id: 'ignored' }, '/no/placeholders'],
	])('%s with %j is %s', (path, values, filled) => {
		expect(fillPath(path, values)).toBe(filled);
	});

	it.each<[FieldValues, string]>([
		[{ id: '..' }, 'id must be an id, not empty, "." or "..", got ".."'],
		[{ id: '.' }, 'id must be an id, not empty, "." or "..", got "."'],
		[{ id: ' .. ' }, 'id must be an id, not empty, "." or "..", got ".."'],
		[{ id: '  ' }, 'id must be an id, not empty, "." or "..", got ""'],
		[{ id: '' }, 'id must be an id, not empty, "." or "..", got ""'],
		[{}, 'id must be an id, not empty, "." or "..", got ""'],
		[{ id: null }, 'id must be an id, not empty, "." or "..", got ""'],
	])('refuses %j, naming the field', (values, message) => {
		expect(() => fillPath('/sessions/{id}', values)).toThrow(new FieldError('id', message));
	});
});

const field = (name: string, more: Partial<ValueField> = {}): ValueField => ({
	property: { displayName: name, name, type: 'string', default: '' },
	rule: text(),
	...more,
});

const op = (more: Partial<OperationDefinition>): OperationDefinition => ({
	value: 'op',
	name: 'Op',
	action: 'Op',
	description: 'Op',
	method: 'POST',
	path: '/things',
	repeatable: true,
	fields: [],
	...more,
});

describe('buildRequest: where each value goes', () => {
	it.each<[string, OperationDefinition, FieldValues, object]>([
		['body by default, query, path, none', op({ path: '/things/{id}', fields: [field('name'), field('page', { location: 'query' }), field('id', { location: 'path' }), field('local', { location: 'none' })] }), { name: 'Jane', page: 2, id: 'a/b', local: 'x' }, { method: 'POST', path: '/things/a%2Fb', body: { name: 'Jane' }, qs: { page: 2 } }],
		['a value left out (undefined) is not sent; no query when none', op({ fields: [field('name'), field('page', { location: 'query' })] }), { name: undefined }, { method: 'POST', path: '/things', body: {} }],
		['a GET has no body', op({ method: 'GET', fields: [field('page', { location: 'query' })] }), { page: 1 }, { method: 'GET', path: '/things', qs: { page: 1 } }],
		['sendAs names the body member', op({ fields: [field('binaryPropertyName', { sendAs: 'imageData' })] }), { binaryPropertyName: 'AAA' }, { method: 'POST', path: '/things', body: { imageData: 'AAA' } }],
		['sendAs as a function of the values', op({ fields: [field('dob', { sendAs: (v) => (v.constraints ? 'dateOfBirth' : 'dob') }), field('constraints', { location: 'none' })] }), { dob: '1980/04/30', constraints: true }, { method: 'POST', path: '/things', body: { dateOfBirth: '1980/04/30' } }],
		['nest gathers fields in one object', op({ fields: [field('voiceLang', { nest: 'messageTemplate' }), field('sender', { nest: 'messageTemplate' })] }), { voiceLang: 'en-US', sender: 'Shop' }, { method: 'POST', path: '/things', body: { messageTemplate: { voiceLang: 'en-US', sender: 'Shop' } } }],
		['a dotted nest goes deeper, beside what another field sent', op({ fields: [field('addons'), field('ageThreshold', { nest: 'addons.ageVerify' })] }), { addons: { liveness: true }, ageThreshold: 18 }, { method: 'POST', path: '/things', body: { addons: { liveness: true, ageVerify: { ageThreshold: 18 } } } }],
		['an answer that may be a file is asked for as bytes', op({ method: 'GET', expects: { body: 'jsonOrFile' } }), {}, { method: 'GET', path: '/things', answerAsBytes: true }],
	])('%s', (_name, definition, values, request) => {
		expect(buildRequest(definition, values)).toEqual(request);
	});

	it('never changes an object another field sent when nesting into it', () => {
		const addons = { liveness: true };
		buildRequest(op({ fields: [field('addons'), field('ageThreshold', { nest: 'addons.ageVerify' })] }), { addons, ageThreshold: 18 });
		expect(addons).toEqual({ liveness: true });
	});

	it('refuses a bad path id of a real operation before anything is sent (QES Get Verification)', () => {
		expect(buildRequest(getVerification, { sessionId: 'se 1' })).toEqual({ method: 'GET', path: '/onboarding/getVerification/se%201' });
		expect(() => buildRequest(getVerification, { sessionId: '..' })).toThrow('sessionId must be an id, not empty, "." or "..", got ".."');
	});
});

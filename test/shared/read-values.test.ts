import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { phoneDigits } from '../../nodes/shared/fields/phone-number';
import { boolean, check, choice, integer, text } from '../../nodes/shared/fields/rules';
import { ItemParameters } from '../../nodes/shared/operation/item-parameters';
import type { FieldValues, OperationDefinition, Rule } from '../../nodes/shared/operation/operation-types';
import { readSettings, readValues } from '../../nodes/shared/operation/read-values';
import { DEFAULT_REQUEST_SETTINGS } from '../../nodes/shared/transport/request-types';

/**
 * Reading and validating one item's values without n8n: a minimal context whose getNodeParameter gives
 * the stored parameter, and evaluates `{{ $json.a.b }}` against the item as n8n would.
 */
function context(parameters: INodeParameters, json: IDataObject = {}): IExecuteFunctions {
	const evaluate = (raw: unknown): unknown => {
		const mapped = typeof raw === 'string' ? /^=\{\{\s*\$json\.([\w.]+)\s*\}\}$/.exec(raw) : null;
		if (mapped) return mapped[1].split('.').reduce<unknown>((v, key) => (v as IDataObject | undefined)?.[key], json);
		if (typeof raw === 'string' && raw.startsWith('=')) throw new Error(`the fake context evaluates only $json mappings, not ${raw}`);
		return raw;
	};
	return {
		getNode: () => ({ parameters }),
		getInputData: () => [{ json }],
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => (parameters[name] === undefined ? fallback : evaluate(parameters[name])),
	} as unknown as IExecuteFunctions;
}

type Outcome = { values: FieldValues } | { error: string };

function read(op: OperationDefinition, parameters: INodeParameters, json?: IDataObject): Outcome {
	const ctx = context(parameters, json);
	try {
		return { values: readValues(ctx, new ItemParameters(ctx), op, 0) };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/** Fills a field left empty from another value of the item, as AML's and Address's rules do. */
const fromName: Rule = { toWire: (v) => v, whenEmpty: ({ values }) => (values.name ? `ref-${String(values.name)}` : undefined) };

/** An operation with what readValues must handle: display conditions, a notice, additional fields, an Options entry a rule reads. */
const op: OperationDefinition = {
	value: 'op',
	name: 'Op',
	action: 'Op',
	description: 'Op',
	method: 'POST',
	path: '/op',
	repeatable: true,
	fields: [
		{ property: { displayName: 'Method', name: 'method', type: 'options', options: [{ name: 'SMS', value: 'sms' }, { name: 'Email', value: 'email' }], default: 'sms', required: true }, rule: choice },
		{ property: { displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', required: true, displayOptions: { show: { method: ['sms'] } } }, rule: phoneDigits(6, 20) },
		{ property: { displayName: 'Email', name: 'email', type: 'string', default: '', required: true, displayOptions: { show: { method: ['email'] } } }, rule: text({ checks: [check.email] }) },
		{ property: { displayName: 'Read this', name: 'notice', type: 'notice', default: '' } },
		{ property: { displayName: 'Name', name: 'name', type: 'string', default: '' }, rule: text() },
		{ property: { displayName: 'Reference', name: 'reference', type: 'string', default: '' }, rule: fromName },
		{ property: { displayName: 'Extras', name: 'extras', type: 'multiOptions', options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }], default: [] }, rule: { toWire: (v) => v } },
		{ property: { displayName: 'Level', name: 'level', type: 'number', default: 1, typeOptions: { minValue: 1, maxValue: 3 }, displayOptions: { show: { extras: ['b'] } } }, rule: integer },
		{ property: { displayName: 'External ID', name: 'externalId', type: 'string', default: '' }, rule: text({ checks: [check.maxLength(5)] }), additional: true },
	],
	options: [{ property: { displayName: 'Clean Phone Number', name: 'cleanPhoneNumber', type: 'boolean', default: true }, rule: boolean() }],
};

describe('readValues: one item, validated in table order', () => {
	it.each<[string, INodeParameters, IDataObject, Outcome]>([
		['the Options first (defaults from the properties, Include Evidence on every operation), then the fields shown', { method: 'sms', phoneNumber: '+43 650 1234567' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567' } }],
		['an Option a rule reads is read before the fields', { method: 'sms', phoneNumber: '+43 650 1234567', options: { cleanPhoneNumber: false } }, {}, { error: 'phoneNumber must be 6 to 20 digits with the country code, without + (e.g. 436501234567), got "+43 650 1234567"' }],
		['a field hidden by its display condition is not read, even when invalid', { method: 'email', phoneNumber: 'not a number', email: 'jane@example.com' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'email', email: 'jane@example.com' } }],
		['a required field left empty', { method: 'email', email: '' }, {}, { error: 'email is required' }],
		['a required choice never set takes no default here: n8n fills it', { phoneNumber: '436501234567' }, {}, { error: 'method is required' }],
		['a rule that breaks names its field', { method: 'email', email: 'jane' }, {}, { error: 'email must be a valid e-mail address, got "jane"' }],
		['an empty optional field is left out', { method: 'sms', phoneNumber: '436501234567', name: '' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567' } }],
		['an empty field whose rule supplies a value (from values read before it)', { method: 'sms', phoneNumber: '436501234567', name: 'Jane' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567', name: 'Jane', reference: 'ref-Jane' } }],
		['additional fields are read from their collection', { method: 'sms', phoneNumber: '436501234567', additionalFields: { externalId: 'ab-1' } }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567', externalId: 'ab-1' } }],
		['an additional field passes its rule too', { method: 'sms', phoneNumber: '436501234567', additionalFields: { externalId: 'too-long' } }, {}, { error: 'externalId must be at most 5 characters, got "too-long"' }],
		['a multi-select meets a condition when any chosen value is listed', { method: 'sms', phoneNumber: '436501234567', extras: ['a', 'b'], level: '2' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567', extras: ['a', 'b'], level: 2 } }],
		['a multi-select without a listed value hides the field', { method: 'sms', phoneNumber: '436501234567', extras: ['a'], level: 'x' }, {}, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567', extras: ['a'] } }],
		['{{ $json.x }} is read from the item', { method: 'sms', phoneNumber: '={{ $json.contact.phone }}' }, { contact: { phone: '+43 650 1234567' } }, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567' } }],
		['{{ $json.x }} of an item without x is a missing value', { method: 'sms', phoneNumber: '={{ $json.phone }}' }, { other: 1 }, { error: 'phoneNumber is required' }],
		['{{ $json.x }} gives a number: the rule converts it', { method: 'sms', phoneNumber: '={{ $json.phone }}' }, { phone: 436501234567 }, { values: { cleanPhoneNumber: true, includeEvidence: true, method: 'sms', phoneNumber: '436501234567' } }],
	])('%s', (_name, parameters, json, expected) => {
		expect(read(op, parameters, json)).toEqual(expected);
	});
});

describe('readSettings: Max Concurrent Requests, Max Requests per Second, Max Retries, Timeout', () => {
	const settings = (options: INodeParameters | undefined): Outcome => {
		const ctx = context(options === undefined ? {} : { options });
		try {
			return { values: { ...readSettings(ctx, new ItemParameters(ctx)) } };
		} catch (error) {
			return { error: (error as Error).message };
		}
	};
	const RATE = 'must be 0 (no known quota) or a number from 0.01 to 1000';
	it.each<[INodeParameters | undefined, Outcome]>([
		// No Options: the Options' defaults are the request path's own, which triggers and load options use.
		[undefined, { values: { ...DEFAULT_REQUEST_SETTINGS } }],
		[{ maxRetries: '2' }, { values: { maxConcurrentRequests: 0, maxRequestsPerSecond: 0, maxRetries: 2, timeoutSeconds: 30 } }],
		[{ maxRequestsPerSecond: 1000, timeoutSeconds: 600 }, { values: { maxConcurrentRequests: 0, maxRequestsPerSecond: 1000, maxRetries: 5, timeoutSeconds: 600 } }],
		[{ maxRequestsPerSecond: 0, timeoutSeconds: 0.1 }, { values: { maxConcurrentRequests: 0, maxRequestsPerSecond: 0, maxRetries: 5, timeoutSeconds: 0.1 } }],
		[{ maxRequestsPerSecond: 0.01 }, { values: { maxConcurrentRequests: 0, maxRequestsPerSecond: 0.01, maxRetries: 5, timeoutSeconds: 30 } }],
		[{ maxRequestsPerSecond: 0.0000001 }, { error: `maxRequestsPerSecond ${RATE}, got 1e-7` }],
		[{ maxRequestsPerSecond: 5000 }, { error: `maxRequestsPerSecond ${RATE}, got 5000` }],
		[{ maxRequestsPerSecond: -1 }, { error: `maxRequestsPerSecond ${RATE}, got -1` }],
		[{ maxRequestsPerSecond: 'fast' }, { error: `maxRequestsPerSecond ${RATE}, got "fast"` }],
		[{ timeoutSeconds: 3000000 }, { error: 'timeoutSeconds must be a number from 0.1 to 600, got 3000000' }],
		[{ timeoutSeconds: 0.001 }, { error: 'timeoutSeconds must be a number from 0.1 to 600, got 0.001' }],
		[{ maxRetries: 21 }, { error: 'maxRetries must be a whole number from 0 to 20, got 21' }],
		[{ maxConcurrentRequests: 2.5 }, { error: expect.stringMatching(/^maxConcurrentRequests must be a whole number from 0 to \d+, got 2\.5$/) }],
	])('%j', (options, expected) => {
		expect(settings(options)).toEqual(expected);
	});
});

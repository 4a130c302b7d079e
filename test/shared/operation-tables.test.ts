import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { FieldError } from '../../nodes/shared/fields/field-error';
import type { FieldValues, ValueField } from '../../nodes/shared/operation/operation-types';
import { requestSettings } from '../../nodes/shared/operation/request-options';
import { OPERATION_TABLES } from '../helpers/operation-tables';

/** Enough of n8n for a rule to read the item: its input carries a small file under `data`, the default binary property. */
const ctx = {
	getInputData: () => [{ json: {}, binary: { data: { mimeType: 'image/png', data: 'iVBORw0KGgo=', bytes: 8, fileName: 'a.png' } } }],
	helpers: { assertBinaryData: () => ({ mimeType: 'image/png', data: 'iVBORw0KGgo=', bytes: 8, fileName: 'a.png' }) },
} as unknown as IExecuteFunctions;
const ruleInput = (field: ValueField, values: FieldValues) => ({ name: field.property.name, property: field.property, values, ctx, itemIndex: 0 });
const hintOf = ({ rule, property }: ValueField) => (typeof rule.hint === 'function' ? rule.hint(property) : rule.hint);
/** What an editor field holds before anyone types: nothing, or an expression n8n evaluates per item. */
const unset = (value: unknown) => value === undefined || value === '' || (typeof value === 'string' && value.startsWith('='));
const RESPONSE_PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/**
 * What the request path relies on in every operation table, checked for operations added later too:
 * a table that breaks one of these would send a field under a wrong name, leave a path placeholder
 * unfilled, or show the editor a parameter the request never reads.
 */
const operations = Object.entries(OPERATION_TABLES).flatMap(([node, ops]) => ops.map((op) => [`${node}.${op.value}`, op] as const));

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

describe.each(operations)('operation table %s: the data contract, without HTTP', (_name, op) => {
	const valueFields = op.fields.filter((f): f is ValueField => f.rule !== undefined);
	const optionDefaults = Object.fromEntries([...(op.options ?? []), ...requestSettings].map((f) => [f.property.name, f.property.default]));

	const defaults = Object.fromEntries(op.fields.map((f) => [f.property.name, f.property.default]));
	/** Shown in a new node, where every parameter holds its default (a consent box shown only once an add-on is chosen is not). */
	const shownAtFirst = (f: ValueField) =>
		Object.entries(f.property.displayOptions?.show ?? {}).every(([name, allowed]) => [defaults[name]].flat().some((v) => (allowed as unknown[]).includes(v)));

	it("every rule accepts its property's default, as n8n fills it into a new node", () => {
		const refused = [...valueFields.filter(shownAtFirst), ...(op.options ?? []), ...requestSettings]
			.filter((f) => !unset(f.property.default))
			.flatMap((f) => {
				try {
					f.rule.toWire(f.property.default, ruleInput(f, { ...optionDefaults }));
					return [];
				} catch (error) {
					return [`${f.property.name}: ${(error as Error).message}`];
				}
			});
		expect(refused).toEqual([]);
	});

	it('a number states its bounds, and a text rule that can refuse says what it wants ("Must be <hint>.")', () => {
		const unexplained = [...valueFields, ...(op.options ?? [])].filter((f) => {
			if (hintOf(f)) return false;
			if (f.property.type === 'number') return true;
			if (f.property.type !== 'string') return false;
			try {
				f.rule.toWire('#?% not a value', ruleInput(f, { ...optionDefaults }));
				return false;
			} catch (error) {
				return error instanceof FieldError;
			}
		});
		expect(unexplained.map((f) => f.property.name)).toEqual([]);
	});

	it('a path starts with / and has no query; a secret goes into neither (URLs are logged)', () => {
		expect(op.path).toMatch(/^\/[^?#\s]*$/);
		expect(valueFields.filter((f) => f.secret && (f.location === 'path' || f.location === 'query')).map((f) => f.property.name)).toEqual([]);
	});

	it('sendAs and nest only on fields sent in the body', () => {
		const misplaced = valueFields.filter((f) => (f.sendAs !== undefined || f.nest !== undefined) && (f.location ?? 'body') !== 'body');
		expect(misplaced.map((f) => f.property.name)).toEqual([]);
	});

	it('names answer members as dotted paths; a receipt only where the request is never resent', () => {
		const paths = [...(op.expects?.oneOf ?? []), ...(op.expects?.allOf ?? []), ...(op.receipt ? [op.receipt] : [])];
		expect(paths.filter((path) => !RESPONSE_PATH.test(path))).toEqual([]);
		for (const list of [op.expects?.oneOf, op.expects?.allOf]) if (list) expect(list.length).toBeGreaterThan(0);
		if (op.receipt) expect(op.repeatable).toBe(false);
	});

	it('hints answer refusals only: a 4xx or 5xx status or notFound, each with words', () => {
		const entries = Object.entries(op.hints ?? {});
		expect(entries.filter(([key, text]) => !(key === 'notFound' || (Number(key) >= 400 && Number(key) < 600)) || !String(text).trim())).toEqual([]);
	});
});

/** Each action node's public names and icon (CONVENTIONS); the golden workflows hold the values saved with them. */
const nodeContracts = [
	['Address/VerificationAddress', 'verificationAddress', 'Address Verification', 'address'],
	['Aml/VerificationAml', 'verificationAml', 'AML Screening', 'aml'],
	['Document/VerificationDocument', 'verificationDocument', 'Document Verification', 'document'],
	['Identity/VerificationIdentity', 'verificationIdentity', 'Identity Verification', 'identity'],
	['Kyb/VerificationKyb', 'verificationKyb', 'KYB Company Data', 'kyb'],
	['Payments/VerificationPayments', 'verificationPayments', 'Payment Account Check', 'payments'],
	['Phone/VerificationPhone', 'verificationPhone', 'Phone Verification', 'phone'],
	['Qes/VerificationQes', 'verificationQes', 'QES Onboarding', 'qes'],
] as const;

describe('node descriptions', () => {
	it.each(nodeContracts)('%s: names, AI-tool use, the shared credential, light and dark icon, one option per table row', async (file, name, displayName, icon) => {
		const module = (await import(`../../nodes/${file}.node`)) as Record<string, new () => INodeType>;
		const { description } = new module[file.split('/')[1]]();
		expect([description.name, description.displayName, description.usableAsTool]).toEqual([name, displayName, true]);
		expect(description.credentials).toEqual([{ name: 'verificationServicesApi', required: true }]);
		expect(description.icon).toEqual({ light: `file:../../icons/${icon}.svg`, dark: `file:../../icons/${icon}.dark.svg` });
		const operation = description.properties.find((p) => p.name === 'operation')!;
		expect(operation.options!.map((o) => (o as { value: string }).value)).toEqual(OPERATION_TABLES[name].map((o) => o.value));
	});

	it('show every operation field, with its rule as the end of its description', async () => {
		const { VerificationPhone } = await import('../../nodes/Phone/VerificationPhone.node');
		const node: INodeType = new VerificationPhone();
		const phoneNumber = node.description.properties.find((p) => p.name === 'phoneNumber')!;
		expect(phoneNumber.description).toMatch(/ Must be 6 to 20 digits \(international format without \+, e\.g\. 436501234567\)\.$/);
		expect(phoneNumber.displayOptions?.show).toEqual({ operation: ['sendOtp'], method: ['sms'] });
	});
});

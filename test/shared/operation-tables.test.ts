import { type IExecuteFunctions, type INodeParameters, type INodeProperties, NodeHelpers } from 'n8n-workflow';

import { FieldError } from '../../nodes/shared/fields/field-error';
import type { FieldValues, ValueField } from '../../nodes/shared/operation/operation-types';
import { requestSettings } from '../../nodes/shared/operation/request-options';
import { resources } from '../../nodes/VerificationServices/resources';
import { actionNode, propertyOf } from '../helpers/sandbox';
import { OPERATIONS } from '../helpers/operation-tables';
import { typeVersionOf } from '../helpers/node-types';

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
describe.each(OPERATIONS)('operation table %s', (_name, op) => {
	const valueFields = op.fields.filter((f) => f.rule !== undefined);

	it('names each parameter once (but for the versions of one, each shown for its node versions), and no field takes the name of an Options entry', () => {
		const versioned = (p: INodeProperties) => ['show', 'hide'].some((k) => p.displayOptions?.[k as 'show' | 'hide']?.['@version'] !== undefined);
		const names = [...op.fields, ...(op.options ?? []), ...requestSettings].filter((f) => !versioned(f.property)).map((f) => f.property.name);
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

	it("shows fields only on conditions of parameters of the same operation, or of n8n's own (@version, @tool)", () => {
		const names = new Set(op.fields.map((f) => f.property.name));
		const conditions = op.fields.flatMap((f) => [...Object.keys(f.property.displayOptions?.show ?? {}), ...Object.keys(f.property.displayOptions?.hide ?? {})]);
		expect(conditions.filter((name) => !names.has(name) && !name.startsWith('@'))).toEqual([]);
	});

	it('names only fields of the operation in its hints, and never a secret one', () => {
		const known = new Set(valueFields.filter((f) => !f.secret).map((f) => f.property.name));
		const named = Object.values(op.hints ?? {}).flatMap((text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
		expect(named.filter((name) => !known.has(name))).toEqual([]);
	});
});

describe.each(OPERATIONS)('operation table %s: the data contract, without HTTP', (_name, op) => {
	const valueFields = op.fields.filter((f): f is ValueField => f.rule !== undefined);
	const optionDefaults = Object.fromEntries([...(op.options ?? []), ...requestSettings].map((f) => [f.property.name, f.property.default]));

	const defaults = Object.fromEntries(op.fields.map((f) => [f.property.name, f.property.default]));
	/** Shown in a new node, where every parameter holds its default (a consent box shown only once an add-on is chosen is not). */
	const shownAtFirst = (f: ValueField) => NodeHelpers.displayParameter(defaults as INodeParameters, f.property, { typeVersion: typeVersionOf(actionNode) }, actionNode.description);

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

type Conditions = Record<string, unknown[] | undefined>;
const show = (p: INodeProperties) => (p.displayOptions?.show ?? {}) as Conditions;

/**
 * The action node's parameters, built from the resource tables: operation values repeat across
 * resources (`verify` is address's and identity's), so every operation's parameter must also name its
 * resource, and n8n reads a parameter by its name among the ones shown.
 */
describe('the action node built from the resource tables', () => {
	const { properties } = actionNode.description;

	it('names every resource and every (resource, operation) pair once', () => {
		const values = resources.map((r) => r.value);
		expect(values.filter((value, i) => values.indexOf(value) !== i)).toEqual([]);
		const ids = OPERATIONS.map(([id]) => id);
		expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
	});

	it("shows every property of an operation only for one resource, and only for that resource's operations", () => {
		const unbound = properties.filter((p) => show(p).operation && show(p).resource?.length !== 1);
		expect(unbound.map((p) => p.name)).toEqual([]);
		const foreign = properties.flatMap((p) => {
			const resource = resources.find((r) => r.value === show(p).resource?.[0]);
			const own = resource?.operations.map((op) => op.value) ?? [];
			return (show(p).operation ?? []).filter((op) => !own.includes(op as string)).map((op) => `${p.name}: ${resource?.value}.${String(op)}`);
		});
		expect(foreign).toEqual([]);
	});

	// Each table names a parameter once (above); no resource or shared property may take its name either.
	it('shows one property of a name for a resource and operation', () => {
		const clashes = OPERATIONS.flatMap(([id]) => {
			const [resource, operation] = id.split('.');
			const shown = properties.filter(
				(p) => (!show(p).resource || show(p).resource!.includes(resource)) && (!show(p).operation || show(p).operation!.includes(operation)),
			);
			return shown.filter((p, i) => shown.findIndex((q) => q.name === p.name) !== i).map((p) => `${id}: ${p.name}`);
		});
		expect(clashes).toEqual([]);
	});

	it('shows every operation field, with its rule as the end of its description', () => {
		const phoneNumber = propertyOf('phone', 'sendOtp', 'phoneNumber');
		expect(phoneNumber.description).toMatch(/ Must be 6 to 20 digits \(international format without \+, e\.g\. 436501234567\)\.$/);
		expect(phoneNumber.displayOptions?.show).toEqual({ resource: ['phone'], operation: ['sendOtp'], method: ['sms'] });
	});
});

import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { ItemParameters, jsonFieldPath } from '../../nodes/shared/operation/item-parameters';
import { items, resourceRun, succeeded, useSandbox } from '../helpers/sandbox';

/** A context whose getNodeParameter answers `evaluate` and counts its calls. */
function context(parameters: INodeParameters, inputs: IDataObject[], evaluate: (name: string, itemIndex: number) => unknown) {
	const calls: Array<[string, number]> = [];
	const ctx = {
		getNode: () => ({ parameters }),
		getInputData: () => items(...inputs),
		getNodeParameter: (name: string, itemIndex: number) => {
			calls.push([name, itemIndex]);
			return evaluate(name, itemIndex);
		},
	} as unknown as IExecuteFunctions;
	return { parameters: new ItemParameters(ctx), calls };
}

describe('ItemParameters: what n8n evaluates per item and what it need not', () => {
	const inputs = Array.from({ length: 50 }, (_, i) => ({ name: `Person ${i}`, age: 30 + i }));
	const byN8n = (name: string, itemIndex: number) => (name === 'options' ? { maxRetries: 2 } : inputs[itemIndex][name as 'name']);

	it('reads a parameter without expressions once for the whole run', () => {
		const { parameters, calls } = context({ options: { maxRetries: 2 } }, inputs, byN8n);
		for (let i = 0; i < inputs.length; i++) expect(parameters.get('options', i, {})).toEqual({ maxRetries: 2 });
		expect(calls).toEqual([['options', 0]]);
	});

	it('reads {{ $json.field }} from the item, after n8n confirmed the first one', () => {
		const { parameters, calls } = context({ name: '={{ $json.name }}', age: '={{$json["age"]}}' }, inputs, byN8n);
		for (let i = 0; i < inputs.length; i++) {
			expect(parameters.get('name', i)).toBe(`Person ${i}`);
			expect(parameters.get('age', i)).toBe(30 + i);
		}
		expect(calls).toEqual([
			['name', 0],
			['age', 0],
		]);
	});

	it('leaves everything else to n8n for every item: other expressions, objects, missing fields', () => {
		const nested = [{ person: { name: 'A' } }, { person: { name: ['B'] } }, {}];
		const { parameters, calls } = context(
			{ full: '={{ $json.first + " " + $json.last }}', inner: '={{ $json.person.name }}', text: '=Dear {{ $json.name }}' },
			nested,
			() => 'by n8n',
		);
		for (let i = 0; i < nested.length; i++) for (const name of ['full', 'inner', 'text']) parameters.get(name, i);
		// Only the first inner name ('A', a text) is the item's own: n8n confirms it once; the list and the gap go to n8n.
		expect(calls.filter(([name]) => name === 'inner').map(([, i]) => i)).toEqual([0, 1, 2]);
		expect(calls.filter(([name]) => name !== 'inner')).toHaveLength(6);
	});

	it('when n8n disagrees with the item, n8n evaluates that parameter for every item of the run', () => {
		const { parameters, calls } = context({ name: '={{ $json.name }}' }, inputs, (_, i) => `other ${i}`);
		for (let i = 0; i < inputs.length; i++) expect(parameters.get('name', i)).toBe(`other ${i}`);
		expect(calls).toHaveLength(inputs.length);
	});

	it.each([
		['={{ $json.name }}', ['name']],
		['={{$json.a.b_c}}', ['a', 'b_c']],
		['={{ $json["first name"] }}', ['first name']],
		["={{ $json['x'].y }}", ['x', 'y']],
		['={{ $json.__proto__ }}', undefined],
		['={{ $json.constructor }}', undefined],
		['={{ $json.name }} ', undefined],
		['={{ $json.name.toUpperCase() }}', undefined],
		['={{ $json[0] }}', undefined],
		['{{ $json.name }}', undefined],
	])('%s maps the item field %j', (raw, keys) => {
		expect(jsonFieldPath(raw)).toEqual(keys);
	});
});

describe('ItemParameters inside n8n: the requests are those n8n evaluation gives', () => {
	const emulator = useSandbox();
	const runAml = resourceRun(emulator, 'aml');
	const AML = 'POST /aml/checkIndividual';

	const input = items({ person: { 'full name': 'Jane Doe' }, first: 'John', last: 'Roe', age: 42 }, { person: { 'full name': 'Ann Lee' }, first: 'Max', last: 'Poe', age: 7 });

	it.each([
		['={{ $json.person["full name"] }}', ['Jane Doe', 'Ann Lee']],
		['={{ $json.first + " " + $json.last }}', ['John Roe', 'Max Poe']],
		['={{ $json.age }}', ['42', '7']],
	])('%s reaches the API as n8n evaluates it', async (name, expected) => {
		succeeded(await runAml({ operation: 'checkIndividual', name } as never, { input }));
		const sent = (await emulator().bodies(AML)).map((b) => b.name);
		expect(sent.sort()).toEqual([...expected].sort());
	});

	it('an item without the mapped field fails validation before anything is sent', async () => {
		const { error } = await runAml({ operation: 'checkIndividual', name: '={{ $json.name }}' } as never, {
			input: items({ name: 'Jane Doe' }, { other: 'x' }),
		});
		expect(error!.message).toMatch(/^Name \(name\) is required.*\(item 2\)$/);
		expect((await emulator().stats()).total).toBe(0);
	});
});

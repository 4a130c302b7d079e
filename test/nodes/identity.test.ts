import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { actionTool, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox, GENERATIONS, playing } from '../helpers/sandbox';

const emulator = useSandbox();
const runIdentity = resourceRun(emulator, 'identity');
const ROUTE = 'POST /identity/verify';

const ERIKA = {
	firstName: 'Erika',
	lastName: 'Mustermann',
	birthDate: '1964-08-12',
	street: 'Heidestraße',
	postalCode: '51147',
	city: 'Köln',
	countryCode: 'de',
};

async function verify(parameters: IDataObject, input?: IDataObject[]) {
	return await runIdentity({ operation: 'verify', ...parameters } as never, { json: input });
}

describe.each(GENERATIONS)('Identity Verification against the %s answer shape', (generation) => {
	playing(emulator, generation);

	it('sends the required fields only, and outputs the whole answer with identityVerification', async () => {
		const out = succeeded(await verify(ERIKA));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				identity: { firstName: 'Erika', lastName: 'Mustermann', birthDate: '1964/08/12' },
				address: { street: 'Heidestraße', postalCode: '51147', city: 'Köln', countryCode: 'DE' },
			},
		]);
		const { identityVerification, ...answer } = out[0].json;
		const result = {
			globalResult: { totalScore: 100 },
			resultDetails: ['Residents Register', 'Credit Bureau'].map((datasource) => ({
				datasource,
				country: 'DE',
				matches: [
					{ record: 'name', match: 'full' },
					{ record: 'birthDate', match: 'full' },
					{ record: 'address', match: 'full' },
				],
			})),
		};
		expect(answer).toEqual(generation === 'g3' ? { status: true, data: result } : result);
		expect(identityVerification).toEqual({ outcome: 'verified', totalScore: 100 });
	});

	it.each([
		['Mustermann', 100, 'verified'],
		['Partial', 75, 'review'],
		['Nomatch', 50, 'notVerified'],
		['Failed', 0, 'notVerified'],
		// A score the provider does not document: a person looks.
		['Unsure', 60, 'review'],
	])('last name %s: totalScore %d is %s', async (lastName, totalScore, outcome) => {
		const out = succeeded(await verify({ ...ERIKA, lastName }));
		expect(out[0].json.identityVerification).toEqual({ outcome, totalScore });
	});
});

describe('Identity Verification: request bodies', () => {
	it('every optional field, the phone number cleaned, raw when on', async () => {
		const out = succeeded(await verify({
			...ERIKA,
			birthDate: '12.08.1964',
			additionalFields: {
				houseNumber: '17',
				building: 'Haus B',
				district: 'Porz',
				province: 'Nordrhein-Westfalen',
				nationalId: 'T22000129',
				phoneNumber: '+49 (151) 1234-5678',
				raw: true,
			},
		}));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				identity: { firstName: 'Erika', lastName: 'Mustermann', birthDate: '1964/08/12', nationalId: 'T22000129' },
				address: {
					street: 'Heidestraße',
					postalCode: '51147',
					city: 'Köln',
					countryCode: 'DE',
					houseNumber: '17',
					building: 'Haus B',
					district: 'Porz',
					province: 'Nordrhein-Westfalen',
				},
				phone: { phoneNumber: '+4915112345678' },
				raw: true,
			},
		]);
		expect((out[0].json.resultDetails as IDataObject[])[0].rawResponse).toEqual({ sourceReference: expect.any(String), queriedAt: expect.any(String) });
	});
});

describe('Identity Verification: answers and failures', () => {
	const throughProxy = async (rewrite: (body: IDataObject) => unknown) =>
		await runWithRewrittenAnswers(emulator(), 'identity', '/identity/verify', rewrite, { operation: 'verify', ...ERIKA });

	it('a score given as text counts; an answer without a score is an error, never "not verified"', async () => {
		const text = await throughProxy((body) => ({ ...body, globalResult: { totalScore: '75' } }));
		expect(text.items[0].json.identityVerification).toEqual({ outcome: 'review', totalScore: 75 });
		const none = await throughProxy(() => ({ resultDetails: [] }));
		expect(none.error).toBeInstanceOf(NodeApiError);
		expect(none.error!.message).toMatch(/^Verify Identity got an answer that is not a JSON object with globalResult\.totalScore \(HTTP 200\)/);
	});
});

describe('Identity Verification as an AI tool', () => {
	it('as an AI tool, gives the model the outcome and the match per source in a few words', async () => {
		const { items: out } = await emulator().run(actionTool, { resource: 'identity', operation: 'verify', ...ERIKA, lastName: 'Partial' } as never);
		expect(out[0].json).toEqual({
			identityVerification: { outcome: 'review', totalScore: 75 },
			resultDetails: ['Residents Register', 'Credit Bureau'].map((datasource) => ({
				datasource,
				country: 'DE',
				matches: ['name: full', 'birthDate: full', 'address: partial'],
			})),
		});
	});
});

import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { type RunOptions, actionTool, expectValidationError, propertyOf, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox, GENERATIONS, playing } from '../helpers/sandbox';

const emulator = useSandbox();
const runAddress = resourceRun(emulator, 'address');
const ROUTE = 'POST /address/verify';

const ERIKA = { country: 'de', street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', firstname: 'Erika', lastname: 'Mustermann' };
const AUSTRIA = { ...ERIKA, country: 'AT', street: 'Hauptstraße', number: '5', zip: '1010', city: 'Wien' };

async function verify(parameters: IDataObject, options?: RunOptions) {
	// These tests read the whole answer: Simplify (on by default) off.
	return await runAddress({ operation: 'verify', simple: false, ...parameters } as never, options);
}

/** The answer's payload: inside the envelope in g3, the body itself in g2. */
const payload = (json: IDataObject, generation: string) => (generation === 'g3' ? (json.data as IDataObject) : json);

describe.each(GENERATIONS)('Address Verification against the %s answer shape', (generation) => {
	playing(emulator, generation);

	it('sends country, address and identity only, and outputs the whole answer with addressVerification', async () => {
		const out = succeeded(await verify(ERIKA));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				country: 'DE',
				address: { street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln' },
				identity: { firstname: 'Erika', lastname: 'Mustermann' },
			},
		]);
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		const { addressVerification, ...answer } = out[0].json;
		if (generation === 'g3') expect(answer.status).toBe(true);
		expect(payload(answer, generation)).toEqual({
			inputAddress: 'Heidestraße 17, 51147 Köln, DE',
			correctedAddress: 'Heidestraße 17, 51147 Köln, DE',
			finalAddress: 'Heidestraße 17, 51147 Köln, DE',
			addressStatus: 'unchanged',
			addressComponents: { street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', province: '', country: 'DE' },
			matchQuality: 'EXACT',
			score: 100,
			globalResult: { overall: 'OK', totalScore: 100 },
			identity: { fullName: 'Erika Mustermann', dob: '' },
			extendedMessage: 'addressFound',
		});
		expect(addressVerification).toEqual({ outcome: 'verified', overall: 'OK', matchQuality: 'EXACT', score: 100 });
	});

	it.each([
		['Mustermann', 'verified', 'OK', 'EXACT', 100],
		['Partial', 'review', 'REVIEW', 'PARTIAL_MATCH', 62],
		['Nobody', 'notVerified', 'NOK', 'NO_MATCH', 0],
		['Stranger', 'notVerified', 'NOK', 'IDENTITY_MISMATCH', 35],
		// An overall result the provider does not document: review, the value kept.
		['Pending', 'review', 'PENDING', 'HOUSENUMBER_MATCH', 70],
	])('last name %s: outcome %s (overall %s)', async (lastname, outcome, overall, matchQuality, score) => {
		const out = succeeded(await verify({ ...ERIKA, lastname }));
		expect(out[0].json.addressVerification).toEqual({ outcome, overall, matchQuality, score });
	});
});

describe('Address Verification: request bodies, and what is refused before sending', () => {
	it('Austria: every optional field, the dob converted, and compliance with the reason', async () => {
		const out = succeeded(await verify({
			...AUSTRIA,
			street: 'haupt str.',
			additionalFields: { province: ' Wien ', dob: '12.08.1964', reason: 'fraud_prevention' },
		}));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				country: 'AT',
				address: { street: 'haupt str.', number: '5', zip: '1010', city: 'Wien', province: 'Wien' },
				identity: { firstname: 'Erika', lastname: 'Mustermann', dob: '1964/08/12' },
				compliance: { acceptedTerms: true, reason: 'fraud_prevention' },
			},
		]);
		expect(out[0].json).toMatchObject({ addressStatus: 'corrected', finalAddress: 'Haupt Straße 5, 1010 Wien, Wien, AT' });
	});

	it('the alpha-3 code AUT is Austria too', async () => {
		succeeded(await verify({ ...AUSTRIA, country: 'aut', additionalFields: { reason: 'onboarding' } }));
		expect((await emulator().bodies(ROUTE))[0]).toMatchObject({ country: 'AUT', compliance: { acceptedTerms: true, reason: 'onboarding' } });
	});

	it.each([
		[{ country: 'AT' }, 'Compliance Reason (reason) is required when the country is AT: Austrian address data may only be queried for a stated purpose'],
		[{ country: 'AT', additionalFields: { reason: '={{ "curiosity" }}' } }, 'Compliance Reason (reason) must be one of account_recovery, fraud_prevention, onboarding, other, regulatory, got "curiosity"'],
	])('refuses before sending: %p', async (change, message) => {
		const result = await verify({ ...ERIKA, ...change }, { json: [{ blank: '' }] });
		await expectValidationError(emulator() as never, result, 0, message);
	});
});

describe('Address Verification: answers and failures', () => {
	const throughProxy = async (rewrite: (body: IDataObject) => unknown) =>
		await runWithRewrittenAnswers(emulator(), 'address', '/address/verify', rewrite, { operation: 'verify', ...ERIKA });

	it('reads overall in any case, and a missing overall is review with matchQuality kept', async () => {
		const lower = await throughProxy((body) => ({ ...body, globalResult: { overall: 'nok', totalScore: 10 } }));
		expect(lower.items[0].json.addressVerification).toMatchObject({ outcome: 'notVerified', overall: 'nok' });
		const missing = await throughProxy((body) => ({ ...body, globalResult: undefined }));
		expect(missing.items[0].json.addressVerification).toEqual({ outcome: 'review', overall: null, matchQuality: 'EXACT', score: 100 });
	});

	it('an answer without result or match quality is an error, never a verdict', async () => {
		const { error, items: out } = await throughProxy(() => ({ status: true, data: { finalAddress: 'Heidestraße 17' } }));
		expect(out).toEqual([]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toMatch(/^Verify Address got an answer that is not a JSON object with globalResult\.overall or matchQuality \(HTTP 200\)/);
	});

	it('a 500 of the provider fails the item with its words, sent once', async () => {
		const { error } = await verify({ ...ERIKA, lastname: 'Explode' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('Verify Address failed with HTTP 500: Internal server error');
		expect(await emulator().count(ROUTE)).toBe(1);
	});
});

describe('Address Verification in the editor and as an AI tool', () => {
	it('shows the AT notice only for Austria', () => {
		const notice = propertyOf('address', 'verify', 'austriaNotice');
		expect(notice.displayOptions?.show).toEqual({ resource: ['address'], operation: ['verify'], country: ['AT', 'at', 'AUT', 'aut'] });
	});

	it('as an AI tool, gives the model the outcome and the final address', async () => {
		const { items: out } = await emulator().run(actionTool, { resource: 'address', operation: 'verify', ...ERIKA, lastname: 'Partial' } as never);
		expect(out[0].json).toEqual({
			addressVerification: { outcome: 'review', overall: 'REVIEW', matchQuality: 'PARTIAL_MATCH', score: 62 },
			finalAddress: 'Heidestraße 17, 51147 Köln, DE',
			addressStatus: 'unchanged',
			extendedMessage: 'postCodeMatch',
		});
	});
});

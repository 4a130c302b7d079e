import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { VALID_DEPOSIT, actionNode, errorItemIndex, expectValidationError, items, propertyOf, resourceRun, succeeded, useSandbox } from '../helpers/sandbox';
import { challengeDeposit } from '../../nodes/VerificationServices/payments/operations/challengeDeposit';

const emulator = useSandbox();
const runPayments = resourceRun(emulator, 'payments');
const ROUTE = 'POST /payments/challenge-deposit';

const VALID = VALID_DEPOSIT;

async function deposit(parameters: IDataObject, input?: IDataObject[]) {
	// These tests read the whole answer: Simplify (on by default) off.
	return await runPayments({ ...VALID, simple: false, ...parameters } as never, { json: input });
}

describe('Payments: Challenge Deposit', () => {
	it('sends piiToggle 0 when off, and nameMatchLogic fuzzy; no holder name comes back', async () => {
		const out = succeeded(await deposit({ piiToggle: false, nameMatchLogic: 'fuzzy', firstName: 'Ana', lastName: 'Schmid' }));
		expect(await emulator().bodies(ROUTE)).toEqual([expect.objectContaining({ piiToggle: 0, nameMatchLogic: 'fuzzy', firstName: 'Ana', lastName: 'Schmid' })]);
		expect(out[0].json.returnedFirstName).toBeUndefined();
		expect(out[0].json.nameMatchScore).toEqual(expect.any(Number));
		expect(out[0].json.nameMatchScore as number).toBeLessThan(100);
	});

	it('names the label from the operation table and the field, counts items from 1 and keeps itemIndex 0-based', async () => {
		const label = challengeDeposit.fields.find((f) => f.property.name === 'description')!.property.displayName;
		expect(label).toBe('Description');
		const result = await runPayments({ ...VALID, description: '={{ $json.reference }}' }, { input: items({ reference: 'ref-1' }, { reference: 'x y' }) });
		await expectValidationError(emulator(), result, 1);
		expect(result.error!.message).toBe(`${label} (description) must be only letters, digits and hyphens (no spaces or other characters), got "x y" (item 2)`);
		expect((result.error as NodeOperationError).description).toBe('Nothing was sent for item 2. Fix the value of "Description" (description) and run again.');
		expect(errorItemIndex(result.error)).toBe(1);
	});
});

describe('Payments parameters and the currency dropdown (loadOptions getCurrencies)', () => {
	it('lists common currencies without calling the API', async () => {
		const options = await emulator().loadOptions(actionNode, 'getCurrencies', { resource: 'payments', operation: 'challengeDeposit' });
		const values = options.map((o) => o.value);
		for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'RON']) expect(values).toContain(code);
		expect(options).toContainEqual({ name: 'EUR - Euro', value: 'EUR' });
		expect((await emulator().stats()).total).toBe(0);
	});

	it('marks the seven deposit fields required', () => {
		for (const name of ['amount', 'currency', 'description', 'firstName', 'lastName', 'piiToggle', 'nameMatchLogic']) {
			expect(propertyOf('payments', 'challengeDeposit', name).required).toBe(true);
		}
	});
});

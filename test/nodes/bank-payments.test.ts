import { NodeApiError, type IDataObject } from 'n8n-workflow';
import axios from 'axios';

import { type RunOptions, GENERATIONS, expectValidationError, items, playing, propertyOf, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runPayments = resourceRun(emulator, 'payments');
const INITIATE = 'POST /payments/initiate';
const STATUS = 'POST /payments/status';

/** Initiate Payment parameters that pass every rule. */
const VALID = {
	operation: 'initiatePayment',
	referenceId: 'order-4711',
	transactionDescription: 'Order 4711',
	returnUrl: 'https://shop.example.com/checkout/done',
	IBAN: 'DE89 3704 0044 0532 0130 00',
	currency: 'EUR',
	amount: '49.90',
};

async function initiate(parameters: IDataObject, options?: RunOptions) {
	return await runPayments({ ...VALID, ...parameters } as never, options);
}

async function status(referenceId: string) {
	return await runPayments({ operation: 'getPaymentStatus', referenceId } as never);
}

describe.each(GENERATIONS)('payments by bank against the %s answer shape', (generation) => {
	playing(emulator, generation);

	it('Initiate Payment sends the six required fields; redirectUrl, requestId and referenceId beside the whole answer', async () => {
		const out = succeeded(await initiate({ currency: 'eur' }));
		expect(await emulator().bodies(INITIATE)).toEqual([
			{
				referenceId: 'order-4711',
				transactionDescription: 'Order 4711',
				returnUrl: 'https://shop.example.com/checkout/done',
				IBAN: 'DE89370400440532013000',
				currency: 'EUR',
				amount: '49.90',
			},
		]);
		const json = out[0].json;
		const answer = generation === 'g3' ? (json.data as IDataObject) : json;
		expect(json.redirectUrl).toBe(answer.redirectUrl);
		expect(json.requestId).toBe(answer.requestId);
		expect(json.redirectUrl).toMatch(new RegExp(`/pay/${json.requestId as string}$`));
		expect(json.referenceId).toBe('order-4711');
		if (generation === 'g3') expect(json.status).toBe(true);
	});

	it('Get Payment Status: pending while the payer has not confirmed, succeeded or failed once the bank decided; the raw status kept', async () => {
		const { items: started } = await initiate({});
		const pending = await status('order-4711');
		expect(pending.error).toBeUndefined();
		expect(await emulator().bodies(STATUS)).toEqual([{ referenceId: 'order-4711' }]);
		const raw = { status: 'INITIATED', statusReasonInformation: 'Waiting for the payer' };
		const derived = { paymentStatus: 'INITIATED', paymentOutcome: 'pending' };
		expect(pending.items[0].json).toEqual(generation === 'g3' ? { status: true, data: raw, ...derived } : { ...raw, ...derived });

		// The payer opens the redirect URL and confirms at their bank.
		expect((await axios.get(started[0].json.redirectUrl as string)).status).toBe(200);
		const paid = await status('order-4711');
		expect(paid.items[0].json).toMatchObject({ paymentStatus: 'SUCCESS', paymentOutcome: 'succeeded' });

		await initiate({ referenceId: 'order-4712' });
		const [{ redirectUrl }] = (await emulator().control.get('/payments')).data.filter((p: IDataObject) => p.referenceId === 'order-4712');
		await axios.get(`${redirectUrl as string}?status=FAILURE_INSUFFICIENT_FUNDS`);
		const failed = await status('order-4712');
		expect(failed.items[0].json).toMatchObject({ paymentStatus: 'FAILURE_INSUFFICIENT_FUNDS', paymentOutcome: 'failed' });
	});
});

describe('Initiate Payment: every rule is checked before any money moves, and no payment is sent twice', () => {
	it('one IBAN whose check digits do not match, among good ones: no payment at all', async () => {
		const result = await initiate({ IBAN: '={{ $json.iban }}' }, { json: [{ iban: 'DE89370400440532013000' }, { iban: 'DE89370400440532013001' }, { iban: 'GB29NWBK60161331926819' }] });
		await expectValidationError(emulator(), result, 1, 'IBAN (IBAN) must be an IBAN whose check digits match the rest (a typing error changes them), got "DE89370400440532013001"');
	});

	it('Continue On Fail: every payment is sent once, the refused one becomes an error item in its place', async () => {
		await emulator().configure({ failures: [{ route: INITIATE, status: 200, raw: '{"requestId":"r"}', contentType: 'application/json' }] });
		const { error, items: out } = await initiate({ referenceId: '={{ $json.order }}' }, { json: [{ order: 'C-1' }, { order: 'C-2' }], continueOnFail: true });
		expect(error).toBeUndefined();
		// The first answer has no redirectUrl: the payer could not go on, so it is an error, never a result.
		expect(out.map((i) => [Boolean(i.json.error), i.pairedItem])).toEqual([
			[true, { item: 0 }],
			[false, { item: 1 }],
		]);
		expect(out[0].json.error).toMatch(/redirectUrl/);
		expect(await emulator().count(INITIATE)).toBe(2);
	});
});

describe('Get Payment Status: the outcome', () => {
	it('a status the API does not document is pending, never succeeded or failed; the raw status stays', async () => {
		await initiate({});
		const { items: out } = await runWithRewrittenAnswers(emulator(), 'payments', '/payments/status', () => ({ status: 'on_hold', statusReasonInformation: 'Bank review' }), {
			operation: 'getPaymentStatus',
			referenceId: 'order-4711',
		});
		expect(out[0].json).toEqual({ status: 'on_hold', statusReasonInformation: 'Bank review', paymentStatus: 'on_hold', paymentOutcome: 'pending' });
	});

	it('an answer without a payment status (only the envelope\'s status: true) is an error, never "pending"', async () => {
		await initiate({});
		const { error, items: out } = await runWithRewrittenAnswers(emulator(), 'payments', '/payments/status', () => ({ status: true, data: { statusReasonInformation: 'x' } }), {
			operation: 'getPaymentStatus',
			referenceId: 'order-4711',
		});
		expect(out).toEqual([]);
		expect(error!.message).toBe('Get Payment Status: the answer carries no payment status (got true)');
	});

	it('an unknown referenceId says what to pass', async () => {
		const { error } = await status('order-0000');
		expect(error!.message).toBe('Get Payment Status failed with HTTP 404: Payment not found');
		expect((error as NodeApiError).description).toContain('No payment with referenceId "order-0000": pass the referenceId you gave Initiate Payment, with the same credential and environment.');
	});

	it("reads the incoming item's referenceId by default (Initiate Payment's output, a payment result)", async () => {
		await initiate({});
		const { items: out } = await runPayments({ operation: 'getPaymentStatus' } as never, { input: items({ referenceId: 'order-4711' }) });
		expect(out[0].json.paymentStatus).toBe('INITIATED');
	});
});

describe('Payments parameters', () => {
	it('shows the money notice for the two operations that move money, and says how the payer opens the link', () => {
		expect(propertyOf('payments', 'challengeDeposit', 'moneyNotice').displayOptions).toEqual({ show: { resource: ['payments'], operation: ['challengeDeposit', 'initiatePayment'] } });
		expect(propertyOf('payments', 'initiatePayment', 'redirectNotice').displayName).toMatch(/full browser redirect.*never in an iframe/);
	});
});

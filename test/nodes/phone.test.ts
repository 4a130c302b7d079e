import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';
import { errorItemIndex, items, useEmulator } from '../helpers/emulator';
import { expectNodeContract } from '../helpers/node-contract';

const emulator = useEmulator();
const node = new VerificationPhone();
const ROUTE = 'POST /phone-service/verification';

async function send(parameters: IDataObject, input?: IDataObject[], continueOnFail = false) {
	return await emulator().run(node, { operation: 'sendOtp', ...parameters } as never, {
		...(input ? { input: items(...input) } : {}),
		continueOnFail,
	});
}

async function sentBodies(): Promise<unknown[]> {
	return (await emulator().requests(ROUTE)).map((r) => r.body);
}

describe('Phone: Send OTP', () => {
	it('sms: cleans a pasted number and sends {method, phoneNumber} only; outputs the whole response', async () => {
		const { items: out, error } = await send({ method: 'sms', phoneNumber: '+43 (650) 123-4567' });
		expect(error).toBeUndefined();
		expect(await sentBodies()).toEqual([{ method: 'sms', phoneNumber: '436501234567' }]);
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].json).toEqual({
			status: true,
			data: {
				mobileAppToken: expect.any(String),
				recipient: { phoneNumber: '436501234567' },
				referenceId: expect.stringMatching(/^[0-9a-f]{32}$/),
				state: 'CREATED',
				status: { code: 3901, description: 'Request in progress', updatedOn: expect.any(String) },
			},
		});
	});

	it('email with every optional field: messageTemplate carries the language, the phone number is not sent', async () => {
		const { items: out, error } = await send({
			method: 'email',
			phoneNumber: '436501234567',
			email: ' jane@example.com ',
			additionalFields: { securityFactor: '4821', externalId: 'signup-4711', voiceLang: 'de-at' },
		});
		expect(error).toBeUndefined();
		expect(await sentBodies()).toEqual([
			{
				method: 'email',
				email: 'jane@example.com',
				securityFactor: '4821',
				externalId: 'signup-4711',
				messageTemplate: { voiceLang: 'de-AT' },
			},
		]);
		expect((out[0].json.data as IDataObject).recipient).toEqual({ email: 'jane@example.com' });
	});

	it('the custom OTP is the code the emulator expects', async () => {
		const { items: out } = await send({ method: 'sms', phoneNumber: '436501234567', additionalFields: { securityFactor: '123456' } });
		const referenceId = (out[0].json.data as IDataObject).referenceId as string;
		const state = await (await fetch(`${emulator().baseUrl.replace(/\/api\/services$/, '')}/__control/phone/${referenceId}`)).json();
		expect(state).toMatchObject({ otp: '123456', otpGenerated: false, method: 'sms' });
	});

	it('with Clean Phone Number off, digits are sent as they are and formatting is refused', async () => {
		const ok = await send({ method: 'sms', phoneNumber: '436501234567', options: { cleanPhoneNumber: false } });
		expect(ok.error).toBeUndefined();
		expect(await sentBodies()).toEqual([{ method: 'sms', phoneNumber: '436501234567' }]);

		await emulator().reset();
		const { error } = await send({ method: 'sms', phoneNumber: '+436501234567', options: { cleanPhoneNumber: false } });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(
			'phoneNumber must be 6 to 20 digits (international format without +, e.g. 436501234567), got "+436501234567" (item 0)',
		);
		expect((await emulator().stats()).total).toBe(0);
	});

	it('is never sent twice: a dropped connection fails the item after one request', async () => {
		await emulator().configure({ failures: [{ route: ROUTE, status: 0, count: 1 }] });
		const { error } = await send({ method: 'sms', phoneNumber: '436501234567' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toContain('Send OTP could not reach the API');
		expect(await emulator().count(ROUTE)).toBe(1);
	});

	describe('refuses invalid values before sending anything', () => {
		async function expectRejected(parameters: IDataObject, field: string, rule: string) {
			const { error, items: out } = await send(parameters, [{ blank: '' }]);
			expect(out).toEqual([]);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error!.message).toContain(field);
			expect(error!.message).toContain(rule);
			expect(error!.message).toContain('(item 0)');
			expect(errorItemIndex(error)).toBe(0);
			expect((await emulator().stats()).total).toBe(0);
		}
		const PHONE_RULE = 'phoneNumber must be 6 to 20 digits (international format without +, e.g. 436501234567) once formatting is removed';

		it.each([
			['12345', 'too short'],
			['123456789012345678901', 'too long'],
			['+43 650 CALL-ME', 'letters'],
			['43#6501234567', 'other characters'],
		])('phoneNumber %p (%s)', async (phoneNumber) => {
			await expectRejected({ method: 'sms', phoneNumber }, 'phoneNumber', `${PHONE_RULE}, got "${phoneNumber}"`);
		});

		it('phoneNumber missing for sms (blank from an expression)', async () => {
			await expectRejected({ method: 'sms', phoneNumber: '={{ $json.blank }}' }, 'phoneNumber', 'phoneNumber is required');
		});

		it.each([['jane@'], ['jane.example.com'], ['jane @example.com'], ['jane@example']])('email %p', async (email) => {
			await expectRejected({ method: 'email', email }, 'email', `email must be a valid e-mail address, got "${email}"`);
		});

		it('email missing for email (blank from an expression)', async () => {
			await expectRejected({ method: 'email', email: '={{ $json.blank }}' }, 'email', 'email is required');
		});

		it('method neither sms nor email', async () => {
			// n8n shows both recipient fields while method is an expression, so both are filled in.
			await expectRejected(
				{ method: '={{ "fax" }}', phoneNumber: '436501234567', email: 'jane@example.com' },
				'method',
				'method must be one of sms, email, got "fax"',
			);
		});

		it('method from an expression chooses the recipient field per item', async () => {
			const { error } = await send({ method: '={{ $json.how }}', phoneNumber: '436501234567', email: 'jane@example.com' }, [
				{ how: 'email' },
				{ how: 'sms' },
			]);
			expect(error).toBeUndefined();
			expect(await sentBodies()).toEqual([
				{ method: 'email', email: 'jane@example.com' },
				{ method: 'sms', phoneNumber: '436501234567' },
			]);
		});

		it.each([['12'], ['12345678901'], ['12a4']])('securityFactor %p', async (securityFactor) => {
			await expectRejected(
				{ method: 'sms', phoneNumber: '436501234567', additionalFields: { securityFactor } },
				'securityFactor',
				`securityFactor must be 3 to 10 digits, got "${securityFactor}"`,
			);
		});

		it('externalId longer than 100 characters', async () => {
			const externalId = 'x'.repeat(101);
			await expectRejected(
				{ method: 'sms', phoneNumber: '436501234567', additionalFields: { externalId } },
				'externalId',
				'externalId must be at most 100 characters, got "xxxx',
			);
		});

		it('delivery language not a language code', async () => {
			await expectRejected(
				{ method: 'sms', phoneNumber: '436501234567', additionalFields: { voiceLang: 'English!' } },
				'voiceLang',
				'voiceLang must be a language code such as en-US or de-AT, got "English!"',
			);
		});

		it('an empty literal phone number is refused by n8n itself (required parameter)', async () => {
			const { error } = await send({ method: 'sms', phoneNumber: '' });
			expect(error?.message).toContain('Parameter "Phone Number" is required');
			expect((await emulator().stats()).total).toBe(0);
		});
	});

	it('accepts boundary values: 6 and 20 digits, 3 and 10 digit OTPs, a 100-character externalId', async () => {
		const { error } = await emulator().run(
			node,
			{
				operation: 'sendOtp',
				method: 'sms',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { securityFactor: '={{ $json.otp }}', externalId: '={{ $json.ext }}' },
			},
			{
				input: items(
					{ phone: '123456', otp: '123', ext: 'e'.repeat(100) },
					{ phone: '12345678901234567890', otp: '1234567890', ext: 'x' },
				),
			},
		);
		expect(error).toBeUndefined();
		expect(await sentBodies()).toEqual([
			{ method: 'sms', phoneNumber: '123456', securityFactor: '123', externalId: 'e'.repeat(100) },
			{ method: 'sms', phoneNumber: '12345678901234567890', securityFactor: '1234567890', externalId: 'x' },
		]);
	});

	it('continues on fail: valid, invalid, valid keep order and pairing, the error item in the middle', async () => {
		const { items: out, error } = await send(
			{ method: 'sms', phoneNumber: '={{ $json.phone }}' },
			[{ phone: '+43 650 1234567' }, { phone: '12-34' }, { phone: '4915112345678' }],
			true,
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(3);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect((out[0].json.data as IDataObject).recipient).toEqual({ phoneNumber: '436501234567' });
		expect(out[1].json.error).toBe(
			'phoneNumber must be 6 to 20 digits (international format without +, e.g. 436501234567) once formatting is removed, got "12-34" (item 1)',
		);
		expect((out[2].json.data as IDataObject).recipient).toEqual({ phoneNumber: '4915112345678' });
		expect(await sentBodies()).toEqual([
			{ method: 'sms', phoneNumber: '436501234567' },
			{ method: 'sms', phoneNumber: '4915112345678' },
		]);
	});
});

describe('Phone node description', () => {
	it('has the contract names, the icon, and shows phoneNumber / email by method', () => {
		const d = node.description;
		expectNodeContract(d, { name: 'verificationPhone', displayName: 'Phone Verification', icon: 'phone', operations: ['sendOtp'] });
		expect(d.properties.find((p) => p.name === 'phoneNumber')!.displayOptions).toEqual({ show: { operation: ['sendOtp'], method: ['sms'] } });
		expect(d.properties.find((p) => p.name === 'email')!.displayOptions).toEqual({ show: { operation: ['sendOtp'], method: ['email'] } });
	});
});

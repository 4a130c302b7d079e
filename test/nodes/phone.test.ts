import { NodeApiError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { GENERATIONS, errorItemIndex, expectValidationError, playing, propertyOf, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runPhone = resourceRun(emulator, 'phone');
const ROUTE = 'POST /phone-service/verification';

async function send(parameters: IDataObject, input?: IDataObject[]) {
	return await runPhone({ operation: 'sendOtp', ...parameters } as never, { json: input });
}

/** Send OTP's answer in each generation: un-enveloped (g2) or in the {status: true, data} envelope (g3). */
const SENT = {
	g2: (recipient: IDataObject, method: string) => ({
		referenceId: expect.stringMatching(/^[0-9a-f]{32}$/),
		status: { code: 3901, description: 'Request in progress' },
		recipient,
		method,
		state: 'CREATED',
	}),
	g3: (recipient: IDataObject) => ({
		status: true,
		data: {
			mobileAppToken: expect.any(String),
			recipient,
			referenceId: expect.stringMatching(/^[0-9a-f]{32}$/),
			state: 'CREATED',
			status: { code: 3901, description: 'Request in progress', updatedOn: expect.any(String) },
		},
	}),
};

describe.each(GENERATIONS)('Phone: Send OTP against %s', (generation) => {
	playing(emulator, generation);

	it('sms: cleans a pasted number and sends {method, phoneNumber} only; outputs the whole answer, its referenceId and recipient at the top level', async () => {
		const out = succeeded(await send({ method: 'sms', phoneNumber: '+43 (650) 123-4567' }));
		expect(await emulator().bodies(ROUTE)).toEqual([{ method: 'sms', phoneNumber: '436501234567' }]);
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		const [stored] = (await emulator().control.get('/phone/messages')).data as Array<{ referenceId: string }>;
		const recipient = { phoneNumber: '436501234567' };
		expect(out[0].json).toEqual({ ...SENT[generation](recipient, 'sms'), referenceId: stored.referenceId, recipient });
	});

	it('email with every optional field: messageTemplate carries the language, the phone number is not sent', async () => {
		const out = succeeded(await send({
			method: 'email',
			phoneNumber: '436501234567',
			email: ' jane@example.com ',
			additionalFields: { securityFactor: '4821', externalId: 'signup-4711', voiceLang: 'de-at' },
		}));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				method: 'email',
				email: 'jane@example.com',
				securityFactor: '4821',
				externalId: 'signup-4711',
				messageTemplate: { voiceLang: 'de-AT' },
			},
		]);
		const recipient = { email: 'jane@example.com' };
		expect(out[0].json).toEqual({ ...SENT[generation](recipient, 'email'), referenceId: expect.stringMatching(/^[0-9a-f]{32}$/), recipient });
		expect(JSON.stringify(out)).not.toContain('4821');
	});
});

describe('Phone: Send OTP', () => {
	it('method from an expression chooses the recipient field per item', async () => {
		succeeded(await send({ method: '={{ $json.how }}', phoneNumber: '436501234567', email: 'jane@example.com' }, [
			{ how: 'email' },
			{ how: 'sms' },
		]));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{ method: 'email', email: 'jane@example.com' },
			{ method: 'sms', phoneNumber: '436501234567' },
		]);
	});

	it('an empty literal phone number is refused by n8n itself (required parameter)', async () => {
		const { error } = await send({ method: 'sms', phoneNumber: '' });
		expect(error?.message).toContain('Parameter "Phone Number" is required');
		expect((await emulator().stats()).total).toBe(0);
	});
});

const CHECK = 'PATCH /phone-service/verification/:referenceId';

/** Sends an OTP through the node; returns Send OTP's output item and the code the emulator "delivered". */
async function sentOtp(phoneNumber = '436501234567'): Promise<{ item: INodeExecutionData; referenceId: string; code: string }> {
	const out = succeeded(await send({ method: 'sms', phoneNumber }));
	const referenceId = out[0].json.referenceId as string;
	const messages = (await emulator().control.get('/phone/messages', { params: { referenceId } })).data as Array<{ code: string; to: string }>;
	expect(messages).toHaveLength(1);
	expect(messages[0].to).toBe(phoneNumber);
	return { item: { json: out[0].json }, referenceId, code: messages[0].code };
}

async function check(parameters: IDataObject, input: INodeExecutionData[]) {
	return await runPhone({ operation: 'checkOtp', ...parameters } as never, { input });
}

/** Another code than `code`, with the same length. */
const wrongCode = (code: string) => code.replace(/./g, (d, i) => (i === 0 ? String((Number(d) + 1) % 10) : d));

/** Checks the right code of a fresh OTP through a proxy that rewrites the code check's 200 answer with `rewrite`. */
async function checkThrough(rewrite: (body: IDataObject) => unknown) {
	const { referenceId, code } = await sentOtp();
	return await runWithRewrittenAnswers(emulator(), 'phone', `/phone-service/verification/${referenceId}`, rewrite, { operation: 'checkOtp', referenceId, securityFactor: code });
}

/** A code check's answer in each generation: {status} alone (g2), or the request's state and referenceId in the envelope (g3). */
const CHECKED = {
	g2: (_referenceId: string, _state: string, code: number, description: string) => ({ status: { code, description } }),
	g3: (referenceId: string, state: string, code: number, description: string) => ({
		status: true,
		data: { referenceId, state, status: { code, description, updatedOn: expect.any(String) } },
	}),
};

describe.each(GENERATIONS)('Phone: Check OTP against %s', (generation) => {
	playing(emulator, generation);

	it('the right code: otpVerified true; referenceId read from the Send OTP item by default; only the code is sent', async () => {
		const { item, referenceId, code } = await sentOtp();
		const out = succeeded(await check({ securityFactor: code }, [item]));
		const [request] = await emulator().requests(CHECK);
		expect(request.path).toBe(`/phone-service/verification/${referenceId}`);
		expect(request.body).toEqual({ securityFactor: code });
		expect(out).toEqual([
			{
				json: {
					...CHECKED[generation](referenceId, 'VERIFIED', 3900, 'Verified'),
					referenceId,
					otpVerified: true,
					otpStatusCode: 3900,
					otpStatusDescription: 'Verified',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('a wrong code (200 with 3905) is an answer: otpVerified false, no error, the code is in no output', async () => {
		const { item, referenceId, code } = await sentOtp();
		const wrong = wrongCode(code);
		const out = succeeded(await check({ securityFactor: wrong }, [item]));
		expect(out[0].json).toEqual({
			...CHECKED[generation](referenceId, 'ONGOING', 3905, 'Invalid security factor'),
			referenceId,
			otpVerified: false,
			otpStatusCode: 3905,
			otpStatusDescription: 'Invalid security factor',
		});
		expect(JSON.stringify(out)).not.toContain(wrong);
		expect(JSON.stringify(out)).not.toContain(code);
	});

	it('a wrong code after the request was verified is not verified, though the state says VERIFIED', async () => {
		const { item, code } = await sentOtp();
		const { items: out } = await check({ securityFactor: '={{ $json.code }}' }, [
			{ json: { ...item.json, code } },
			{ json: { ...item.json, code: wrongCode(code) } },
		]);
		expect(out.map((i) => [i.json.otpVerified, i.json.otpStatusCode])).toEqual([
			[true, 3900],
			[false, 3905],
		]);
		if (generation === 'g3') expect((out[1].json.data as IDataObject).state).toBe('VERIFIED');
	});

	it('a code is accepted only for the referenceId it was sent with', async () => {
		const first = await sentOtp('436501111111');
		const second = await sentOtp('436502222222');
		const out = succeeded(await check({ referenceId: '={{ $json.ref }}', securityFactor: '={{ $json.code }}' }, [
			{ json: { ref: first.referenceId, code: second.code } },
			{ json: { ref: second.referenceId, code: second.code } },
		]));
		// The two codes may coincide by chance (1 in a million): then both are verified.
		expect(out.map((i) => i.json.otpVerified)).toEqual([first.code === second.code, true]);
	});

	it('a 2xx that states only a description is an error, never a verdict read from its words', async () => {
		const { error, items: out } = await checkThrough(() => ({ status: true, data: { status: { description: 'Verified' } } }));
		expect(out).toEqual([]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe(
			'Check OTP got an answer that is not a JSON object with status.code or state (HTTP 200); it may have been carried out: application/json, starting "{"status":true,"data":{"status":{"description":"Verified"}}}"',
		);
	});

	it.each([
		[{ state: 'VERIFIED' }, true],
		[{ data: { state: 'verified' } }, true],
		[{ state: 'ONGOING', status: { description: 'Not verified' } }, false],
	])('an answer without a code follows its state: %j', async (answer, verified) => {
		const out = succeeded(await checkThrough(() => answer));
		expect(out[0].json).toMatchObject({ ...answer, otpVerified: verified, otpStatusCode: null });
	});
});

describe('Phone: Check OTP', () => {
	it('a wrong code answered as 4xx whose body carries 3905 is an answer too (with and without the data wrapper)', async () => {
		const { item, referenceId } = await sentOtp();
		const wrapped = { status: false, message: 'Invalid security factor', data: { status: { code: 3905, description: 'Invalid security factor' } } };
		const bare = { message: 'Invalid OTP', status: { code: '3905', description: 'Invalid OTP' } };
		await emulator().configure({
			failures: [
				{ route: CHECK, status: 400, body: wrapped },
				{ route: CHECK, status: 422, body: bare },
			],
		});
		const first = await check({ securityFactor: '123456' }, [item]);
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toEqual({ ...wrapped, referenceId, otpVerified: false, otpStatusCode: 3905, otpStatusDescription: 'Invalid security factor' });
		const second = await check({ securityFactor: '123456' }, [item]);
		expect(second.error).toBeUndefined();
		expect(second.items[0].json).toEqual({ ...bare, referenceId, otpVerified: false, otpStatusCode: 3905, otpStatusDescription: 'Invalid OTP' });
		expect(await emulator().count(CHECK)).toBe(2);
	});

	it('an unknown referenceId is an error naming it', async () => {
		const { error } = await check({ referenceId: '0123456789abcdef0123456789abcdef', securityFactor: '424242' }, [{ json: {} }]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('Check OTP failed with HTTP 404: Verification not found');
		expect((error as NodeApiError).httpCode).toBe('404');
		expect((error as NodeApiError).description).toContain(
			'No OTP request with referenceId "0123456789abcdef0123456789abcdef": pass the referenceId that Send OTP returned for this person, with a credential of the same account and environment (Production or Sandbox).',
		);
		expect(JSON.stringify(error)).not.toContain('424242');
	});

	it('other API errors never show the code, even when the API echoes it', async () => {
		const { item } = await sentOtp();
		await emulator().configure({
			failures: [{ route: CHECK, status: 400, body: { message: 'securityFactor 987654 rejected: request locked', securityFactor: '987654' } }],
		});
		// The code comes from an expression, as in a real workflow (a literal would be stored in the node's parameters).
		const { error } = await check({ securityFactor: '={{ $json.code }}' }, [{ json: { ...item.json, code: '987654' } }]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('Check OTP failed with HTTP 400: securityFactor [redacted] rejected: request locked');
		expect(JSON.stringify({ ...error, message: error!.message, description: (error as NodeApiError).description })).not.toContain('987654');
	});

	it('a code that is not 3 to 10 digits: item 2 named, nothing sent, the code not shown', async () => {
		const result = await check({ referenceId: 'abc', securityFactor: '={{ $json.code }}' }, [{ json: { code: '1234' } }, { json: { code: '12a4' } }]);
		await expectValidationError(emulator(), result, 1);
		expect(result.error!.message).toBe('Security Factor (Code) (securityFactor) must be 3 to 10 digits (the value is not shown: it is a one-time code) (item 2)');
		expect(errorItemIndex(result.error)).toBe(1);
	});
});

describe('Phone parameters', () => {
	it('masks the code field and defaults referenceId to the Send OTP item', () => {
		const code = propertyOf('phone', 'checkOtp', 'securityFactor');
		expect(code.typeOptions).toEqual({ password: true });
		expect(code.required).toBe(true);
		const ref = propertyOf('phone', 'checkOtp', 'referenceId');
		expect(ref.default).toBe('={{ $json.referenceId }}');
		expect(ref.displayOptions).toEqual({ show: { resource: ['phone'], operation: ['checkOtp'] } });
	});

	it('shows email for the email method (phoneNumber for sms: operation-tables.test)', () => {
		expect(propertyOf('phone', 'sendOtp', 'email').displayOptions).toEqual({ show: { resource: ['phone'], operation: ['sendOtp'], method: ['email'] } });
	});
});

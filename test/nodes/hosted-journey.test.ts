import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { type RunOptions, GENERATIONS, SANDBOX_CUSTOMER_ID, expectValidationError, playing, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runDocument = resourceRun(emulator, 'document');
const ROUTE = 'POST /sdk/universal/handshake';
const PATH = '/sdk/universal/handshake';

async function start(parameters: IDataObject, options?: RunOptions) {
	return await runDocument({ operation: 'startHostedJourney', processName: 'onboarding', ...parameters } as never, options);
}

const journeyUrl = (transactionId: string) => `${emulator().baseUrl.replace(/\/api\/services$/, '')}/journey/${transactionId}`;

/** Every optional field of the handshake, as a user fills them in the editor. */
const EVERY_FIELD = {
	additionalFields: {
		fullName: ' Erika Mustermann ',
		DOB: '12.08.1964',
		streetAddress: 'Hauptstraße 5',
		locality: 'Wien',
		region: 'Wien',
		postalCode: '1010',
		country: 'at',
		iban: 'at61 1904 3002 3457 3201',
		phoneNumber: '+43 650 123 4567',
		unstructuredInput: 'Customer since 2019',
		passThroughData: '{"customerNumber": "C-4711"}',
	},
	steps: {
		extraForensics: true,
		biometricMatching: true,
		liveness: false,
		photoIdentPlus: true,
		blocking: false,
		permittedDocuments: {
			document: [
				{ idType: 'passport', bloc: '', countries: '', excludedCountries: 'ru, by' },
				{ idType: 'nationalId', bloc: 'eea', countries: 'at,DE', excludedCountries: '' },
			],
		},
	},
};

describe.each(GENERATIONS)('Start Hosted Journey against the %s answer shape', (generation) => {
	playing(emulator, generation);

	it('sends journey{customerId from the credential, processName}; outputs transactionId and uiHandle beside the whole answer', async () => {
		const out = succeeded(await start({ processName: ' onboarding ' }));
		expect(await emulator().bodies(ROUTE)).toEqual([{ journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' } }]);
		const json = out[0].json;
		const transactionId = json.transactionId as string;
		expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(json.uiHandle).toBe(journeyUrl(transactionId));
		if (generation === 'g3') expect(json).toEqual({ status: true, data: { transactionId, uiHandle: json.uiHandle }, transactionId, uiHandle: json.uiHandle });
		else expect(json).toEqual({ transaction_id: transactionId, ui_handle: json.uiHandle, init_timestamp: expect.stringMatching(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/), transactionId, uiHandle: json.uiHandle });
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(JSON.stringify(out)).not.toContain(SANDBOX_CUSTOMER_ID);
	});

	it('sends every validation field in validationData (address nested), the document step and passThroughData', async () => {
		succeeded(await start(EVERY_FIELD));
		expect(await emulator().bodies(ROUTE)).toEqual([
			{
				journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' },
				validationData: {
					fullName: 'Erika Mustermann',
					DOB: '1964/08/12',
					address: { streetAddress: 'Hauptstraße 5', locality: 'Wien', region: 'Wien', postalCode: '1010', country: 'AT' },
					iban: 'AT611904300234573201',
					phoneNumber: '+436501234567',
					unstructuredInput: 'Customer since 2019',
				},
				steps: [
					{
						id: 'documentVerification',
						type: 'documentVerification',
						interface: 'Umbrella Toolbox',
						blocking: false,
						configuration: {
							extraForensics: true,
							biometricMatching: true,
							liveness: false,
							photoIdentPlus: true,
							permittedDocuments: [
								{ idType: 'passport', excludedCountries: ['RU', 'BY'] },
								{ idType: 'nationalId', bloc: 'EEA', countries: ['AT', 'DE'] },
							],
						},
					},
				],
				passThroughData: { customerNumber: 'C-4711' },
			},
		]);
	});
});

describe('Start Hosted Journey: the request', () => {
	it.each([
		['only the address', { additionalFields: { locality: 'Graz', country: 'aut' } }, { validationData: { address: { locality: 'Graz', country: 'AUT' } } }],
		['one check of the step', { steps: { liveness: true } }, { steps: [{ id: 'documentVerification', type: 'documentVerification', interface: 'Umbrella Toolbox', configuration: { liveness: true } }] }],
		['a permitted document with countries from an expression', { steps: { permittedDocuments: { document: [{ idType: 'driversLicense', countries: '={{ ["at", "de"] }}' }] } } }, { steps: [{ id: 'documentVerification', type: 'documentVerification', interface: 'Umbrella Toolbox', configuration: { permittedDocuments: [{ idType: 'driversLicense', countries: ['AT', 'DE'] }] } }] }],
		['an empty document step (none sent)', { steps: {} }, {}],
		['a name that is only spaces (left out)', { additionalFields: { fullName: '={{ "  " }}', locality: 'Graz' } }, { validationData: { address: { locality: 'Graz' } } }],
		['passThroughData from an expression (an object)', { additionalFields: { passThroughData: '={{ { customerNumber: $json.customer } }}' } }, { passThroughData: { customerNumber: 'C-1' } }],
	])('%s', async (_what, parameters, expected) => {
		succeeded(await start(parameters, { json: [{ customer: 'C-1' }] }));
		expect(await emulator().bodies(ROUTE)).toEqual([{ journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' }, ...expected }]);
	});
});

describe('Start Hosted Journey: refused before sending', () => {
	it.each([
		[{ steps: { liveness: '={{ "yes" }}' } }, 'Document Step (steps): liveness must be true or false, got "yes"'],
		[{ steps: { permittedDocuments: { document: [{ idType: '={{ "visa" }}' }] } } }, 'Document Step (steps): permitted document 1: idType must be one of passport, nationalId, driversLicense, got "visa"'],
		[{ steps: { permittedDocuments: { document: [{ idType: 'passport', countries: 'Austria, DE' }] } } }, 'Document Step (steps): permitted document 1: countries must be ISO 3166-1 country codes of 2 or 3 letters, separated by commas (AT, DE), got "Austria, DE"'],
		[{ steps: { permittedDocuments: { document: [{ idType: 'passport', bloc: 'E.E.A.' }] } } }, 'Document Step (steps): permitted document 1: bloc must be a group of countries such as EEA, got "E.E.A."'],
	])('%j', async (parameters, message) => {
		await expectValidationError(emulator(), await start(parameters as IDataObject), 0, message);
	});
});

describe('Start Hosted Journey: the customer id stays a secret', () => {
	it('an answer that echoes the customer id is output without it; the link and id stay whole', async () => {
		const out = succeeded(await runWithRewrittenAnswers(
			emulator(),
			'document',
			PATH,
			(answer) => ({ ...answer, journey: { customerId: SANDBOX_CUSTOMER_ID }, note: `journey for ${SANDBOX_CUSTOMER_ID}` }),
			{ operation: 'startHostedJourney', processName: 'onboarding' },
		));
		expect(JSON.stringify(out)).not.toContain(SANDBOX_CUSTOMER_ID);
		expect(out[0].json).toMatchObject({ journey: { customerId: '[redacted]' }, note: 'journey for [redacted]', uiHandle: expect.stringContaining('/journey/') });
	});

	it('an error that echoes the request (the body with the customer id, the headers) names none of it', async () => {
		await emulator().configure({ failures: [{ route: ROUTE, status: 400, echoHeaders: true }] });
		const { error } = await start({});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(JSON.stringify({ message: error!.message, description: (error as NodeApiError).description, context: (error as NodeApiError).context })).not.toContain(SANDBOX_CUSTOMER_ID);
	});

	it('a 2xx answer without the link is an error, never a journey without its link', async () => {
		const { error } = await runWithRewrittenAnswers(emulator(), 'document', PATH, (answer) => ({ transaction_id: answer.transaction_id }), {
			operation: 'startHostedJourney',
			processName: 'onboarding',
		});
		expect(error!.message).toContain('Start Hosted Journey');
		expect(error!.message).toMatch(/uiHandle/);
	});
});

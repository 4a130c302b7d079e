import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { type RunOptions, actionNode, actionTool, expectValidationError, propertyOf, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox, GENERATIONS, playing } from '../helpers/sandbox';

const emulator = useSandbox();
const runPhone = resourceRun(emulator, 'phone');

const ROUTES = {
	getPhoneStatus: 'POST /phone-service/phoneStatus',
	getPhoneId: 'POST /phone-service/phoneid',
	getRiskScore: 'POST /phone-service/phoneRiskScore',
	getFullIntelligence: 'POST /phone-service/fullPhoneIntelligence',
} as const;
type Operation = keyof typeof ROUTES;

async function lookup(operation: Operation, parameters: IDataObject, options?: RunOptions) {
	// The whole answer (Simplify off): what these tests read; Simplify itself: golden phone-v2-simplify.json.
	return await runPhone({ operation, simple: false, ...parameters } as never, options);
}

/** A value of the answer in either shape: g3 wraps it in `data`. */
const answered = (json: IDataObject, name: string) => ((json.data as IDataObject | undefined) ?? json)[name];

/** Runs the operation with the emulator's answers of its route rewritten. */
const throughProxy = async (operation: Operation, parameters: IDataObject, rewrite: (body: IDataObject) => unknown, continueOnFail = false) =>
	await runWithRewrittenAnswers(emulator(), 'phone', ROUTES[operation].slice('POST '.length), rewrite, { operation, simple: false, ...parameters }, { continueOnFail });

describe.each(GENERATIONS)('phone lookups against the %s answer shape', (generation) => {
	playing(emulator, generation);
	const lookupOf = (json: IDataObject) => ({ status: 'completed', statusCode: 300, statusDescription: 'Transaction successfully completed', referenceId: answered(json, 'referenceId') });

	it('Get Phone Status: + and the digits are sent; lookup and lineStatus beside the whole answer', async () => {
		const out = succeeded(await lookup('getPhoneStatus', { phoneNumber: '43 650 999-0001' }));
		expect(await emulator().bodies(ROUTES.getPhoneStatus)).toEqual([{ phoneNumber: '+436509990001' }]);
		const json = out[0].json;
		if (generation === 'g3') expect(json.status).toBe(true);
		expect(answered(json, 'referenceId')).toMatch(/^[0-9a-f]{32}$/);
		expect(answered(json, 'carrier')).toEqual({ name: 'A1 Telekom Austria' });
		expect(json.lookup).toEqual(lookupOf(json));
		expect(json.lineStatus).toEqual({ subscriberStatus: 'ACTIVE', deviceStatus: 'REACHABLE', roaming: 'ROAMING', roamingCountry: 'Germany' });
	});

	it.each([
		['436501234567', 'allow', 120, 'low', 'recommendation'],
		['436509990001', 'flag', 520, 'medium', 'recommendation'],
		['436509990002', 'block', 870, 'very-high', 'recommendation'],
		// The answer gives a score only: the provider's client bands decide.
		['436509990003', 'flag', 480, null, 'scoreBands'],
	])('Get Risk Score %s: %s (score %d)', async (number, recommendation, score, level, basis) => {
		const out = succeeded(await lookup('getRiskScore', { phoneNumber: `+${number}` }));
		expect(out[0].json.riskAssessment).toEqual({ recommendation, score, level, basis });
		expect(out[0].json.lookup).toEqual(lookupOf(out[0].json));
		expect(answered(out[0].json, 'riskInsights')).toMatchObject({ status: 800 });
	});

	it('Get Full Intelligence: digits only; the risk and every block of the answer', async () => {
		const out = succeeded(await lookup('getFullIntelligence', { phoneNumber: '+43 650 999 0002', additionalFields: { externalId: 'signup_4711.a-b' } }));
		expect(await emulator().bodies(ROUTES.getFullIntelligence)).toEqual([{ phoneNumber: '436509990002', externalId: 'signup_4711.a-b' }]);
		const json = out[0].json;
		expect(json.riskAssessment).toEqual({ recommendation: 'block', score: 870, level: 'very-high', basis: 'recommendation' });
		expect(answered(json, 'blocklisting')).toEqual({ blocked: true, blockCode: 3, blockDescription: 'Number reported for fraud' });
		expect(answered(json, 'externalId')).toBe('signup_4711.a-b');
		for (const block of ['numbering', 'location', 'phoneType', 'carrier', 'riskInsights', 'risk']) expect(answered(json, block)).toBeDefined();
	});

	it('Get Phone ID: each add-on result is read, 2806 and 2805 are warnings on a successful item', async () => {
		const parameters = { addons: ['simSwap', 'portingStatus'] };
		const { items: out, error, hints } = await lookup('getPhoneId', { phoneNumber: '={{ $json.number }}', ...parameters }, {
			json: [{ number: '436501234567' }, { number: '436509992806' }, { number: '436509992805' }],
		});
		expect(error).toBeUndefined();
		expect(out.map((i) => i.json.addonResults)).toEqual(
			[
				['completed', 2800, 'Request successfully completed'],
				['notEnabled', 2806, 'Add-on not enabled for this account'],
				['noData', 2805, 'No data available for this number'],
			].map(([result, statusCode, statusDescription]) => ({
				simSwap: { result, statusCode, statusDescription },
				portingStatus: { result, statusCode, statusDescription },
			})),
		);
		expect((answered(out[0].json, 'addons') as IDataObject).simSwap).toEqual({ status: { code: 2800, description: 'Request successfully completed' }, swapped: false, lastSwapDate: null });
		expect(hints.map((h) => h.message)).toEqual([
			'Get Phone ID: the add-on simSwap is not enabled for your account (status 2806): its result is missing; ask the provider to enable it',
			'Get Phone ID: the add-on portingStatus is not enabled for your account (status 2806): its result is missing; ask the provider to enable it',
		]);
	});

	it('status 301 is a partial result with a warning; 404 and 500 fail with the provider\'s words', async () => {
		const partial = await lookup('getPhoneStatus', { phoneNumber: '+436509990301' });
		expect(partial.error).toBeUndefined();
		expect(partial.items[0].json.lookup).toMatchObject({ status: 'partial', statusCode: 301, statusDescription: 'Transaction partially completed' });
		expect(partial.items[0].json.lineStatus).toEqual({ subscriberStatus: null, deviceStatus: null, roaming: null, roamingCountry: null });
		expect(partial.hints.map((h) => h.message)).toEqual([
			'Get Phone Status: the provider completed some lookups only partly (status code 301): their lookup.status is "partial" and some results may be missing',
		]);

		const notFound = await lookup('getRiskScore', { phoneNumber: '+436509990404' });
		expect(notFound.error).toBeInstanceOf(NodeApiError);
		expect(notFound.error!.message).toBe('Get Risk Score failed with HTTP 404: Phone number not found');
		const failed = await lookup('getFullIntelligence', { phoneNumber: '436509990500' });
		expect(failed.error!.message).toBe('Get Full Intelligence failed with HTTP 500: Internal error');
		expect(await emulator().count(ROUTES.getFullIntelligence)).toBe(1);
	});
});

describe('Get Phone ID: add-ons', () => {
	const EVERY_ADDON = {
		phoneNumber: '+43 650 1234567',
		accountLifecycleEvent: 'create',
		addons: ['ageVerify', 'breachedData', 'callForwardDetection', 'contact', 'contactMatch', 'contactPlus', 'numberDeactivation', 'portingHistory', 'portingStatus', 'simSwap', 'subscriberStatus'],
		consent: true,
		ageThreshold: 21,
		email: ' erika@example.com ',
		firstName: 'Erika',
		lastName: 'Mustermann',
		address: 'Hauptstraße 5',
		city: 'Wien',
		postalCode: '1010',
		state: 'Wien',
		country: 'at',
		inputUsed: 'phoneNumber and email',
		billingPostalCode: '1010',
		pastXDays: 3650,
		additionalFields: { externalId: 'signup-4711', originatingIp: '2001:db8::1' },
	};

	it('every add-on with its fields inside it, and consent stamped now', async () => {
		const before = Date.now();
		const out = succeeded(await lookup('getPhoneId', EVERY_ADDON));
		const [body] = await emulator().bodies(ROUTES.getPhoneId);
		expect(body).toEqual({
			phoneNumber: '436501234567',
			accountLifecycleEvent: 'create',
			addons: {
				ageVerify: { ageThreshold: 21 },
				breachedData: {},
				callForwardDetection: {},
				contact: { email: 'erika@example.com' },
				contactMatch: {
					firstName: 'Erika',
					lastName: 'Mustermann',
					address: 'Hauptstraße 5',
					city: 'Wien',
					postalCode: '1010',
					state: 'Wien',
					country: 'AT',
					inputUsed: 'phoneNumber and email',
				},
				contactPlus: { billingPostalCode: '1010' },
				numberDeactivation: {},
				portingHistory: { pastXDays: 3650 },
				portingStatus: {},
				simSwap: {},
				subscriberStatus: {},
			},
			consent: { method: 4, timestamp: expect.any(String) },
			externalId: 'signup-4711',
			originatingIp: '2001:db8::1',
		});
		expect(Date.parse((body.consent as IDataObject).timestamp as string)).toBeGreaterThanOrEqual(before - 1000);
		expect(Object.values(out[0].json.addonResults as IDataObject).every((r) => (r as IDataObject).result === 'completed')).toBe(true);
	});

	it('without add-ons: the number and the lifecycle event (default transact); fields of add-ons not chosen are not sent', async () => {
		succeeded(await lookup('getPhoneId', { phoneNumber: '436501234567', ageThreshold: 30, pastXDays: 7, consent: true }));
		expect(await emulator().bodies(ROUTES.getPhoneId)).toEqual([{ phoneNumber: '436501234567', accountLifecycleEvent: 'transact' }]);
	});

	it('the add-ons from an expression: only the listed ones and their fields are sent', async () => {
		// With an expression n8n shows (and requires) every add-on's fields.
		succeeded(await lookup('getPhoneId', { ...EVERY_ADDON, addons: '={{ ["portingHistory"] }}', pastXDays: 30 }));
		expect(await emulator().bodies(ROUTES.getPhoneId)).toEqual([
			{ phoneNumber: '436501234567', accountLifecycleEvent: 'create', addons: { portingHistory: { pastXDays: 30 } }, externalId: 'signup-4711', originatingIp: '2001:db8::1' },
		]);
	});

	it('refuses an add-on it does not know ("teleport") before sending', async () => {
		const result = await lookup('getPhoneId', { ...EVERY_ADDON, addons: '={{ ["simSwap", "teleport"] }}' }, { json: [{ blank: '' }] });
		await expectValidationError(emulator() as never, result, 0, 'Add-Ons (addons) must be a list of add-ons from ageVerify, breachedData,');
	});
});

describe('Get Risk Score: fields and answers', () => {
	it('sends every optional field as given (e-mail case kept)', async () => {
		succeeded(await lookup('getRiskScore', {
			phoneNumber: '+436501234567',
			accountLifecycleEvent: 'sign-in',
			additionalFields: { externalId: 'x-1', originatingIp: ' 192.0.2.10 ', deviceId: 'Dev-A1', accountId: 'Acct-7', emailAddress: 'Erika@Example.com' },
		}));
		expect(await emulator().bodies(ROUTES.getRiskScore)).toEqual([
			{
				phoneNumber: '+436501234567',
				accountLifecycleEvent: 'sign-in',
				externalId: 'x-1',
				originatingIp: '192.0.2.10',
				deviceId: 'Dev-A1',
				accountId: 'Acct-7',
				emailAddress: 'Erika@Example.com',
			},
		]);
	});

	it.each([
		['an unknown recommendation is flag', { risk: { score: 10, level: 'low', recommendation: 'REVIEW' } }, { recommendation: 'flag', score: 10, level: 'low', basis: 'recommendation' }],
		['the oldest generation\'s names', { riskScore: '790', riskLevel: 'high', riskRecommendation: 'Block' }, { recommendation: 'block', score: 790, level: 'high', basis: 'recommendation' }],
		['a score of 450 only is allow', { risk: { score: 450 } }, { recommendation: 'allow', score: 450, level: null, basis: 'scoreBands' }],
		['a score of 601 only is block', { risk: { score: 601 } }, { recommendation: 'block', score: 601, level: null, basis: 'scoreBands' }],
		['no risk at all: no verdict', {}, { recommendation: null, score: null, level: null, basis: 'none' }],
	])('%s', async (_title, risk, riskAssessment) => {
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the property is left out on purpose
		const out = succeeded(await throughProxy('getRiskScore', { phoneNumber: '+436501234567' }, ({ risk: _drop, ...body }) => ({ ...body, ...risk })));
		expect(out[0].json.riskAssessment).toEqual(riskAssessment);
	});
});

describe('phone lookups: answers of other generations and failures', () => {
	it('reads the oldest generation\'s snake_case answer', async () => {
		const snake = (body: IDataObject) => {
			const live = body.live as IDataObject;
			return {
				reference_id: body.referenceId,
				sub_resource: 'live',
				status: body.status,
				live: { subscriber_status: live.subscriberStatus, device_status: live.deviceStatus, roaming: live.roaming, roaming_country: live.roamingCountry },
			};
		};
		const out = succeeded(await throughProxy('getPhoneStatus', { phoneNumber: '+436509990002' }, snake));
		expect(out[0].json.lookup).toMatchObject({ status: 'completed', referenceId: out[0].json.reference_id });
		expect(out[0].json.lineStatus).toEqual({ subscriberStatus: 'DEACTIVATED', deviceStatus: 'UNREACHABLE', roaming: 'UNAVAILABLE', roamingCountry: null });
	});

	it('a 200 whose status is not 300 or 301 fails the item: with Continue On Fail an error item says why', async () => {
		const incomplete = (body: IDataObject) => ({ ...body, status: { code: 500, description: 'Upstream carrier timeout' } });
		const { items: out, error } = await throughProxy('getRiskScore', { phoneNumber: '+436501234567' }, incomplete, true);
		expect(error).toBeUndefined();
		expect(out).toEqual([
			{
				json: {
					error: 'Get Risk Score: the provider did not complete the lookup (status code 500: Upstream carrier timeout)',
					description: expect.stringContaining('Only status code 300 (completed) and 301 (partially completed) carry a result'),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an answer without a status is an error', async () => {
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the property is left out on purpose
		const { error } = await throughProxy('getPhoneId', { phoneNumber: '436501234567' }, ({ status: _drop, ...body }) => body);
		expect(error!.message).toMatch(/^Get Phone ID got an answer that is not a JSON object with status\.code \(HTTP 200\)/);
	});
});

describe('Phone node: the lookups in the editor and as AI tools', () => {
	const shownFor = (name: string) => propertyOf('phone', 'getPhoneId', name).displayOptions!.show;

	it('shows each add-on field only while its add-on is chosen, and consent for Age Verification and Contact', () => {
		const phoneId = { resource: ['phone'], operation: ['getPhoneId'] };
		expect(shownFor('ageThreshold')).toEqual({ ...phoneId, addons: ['ageVerify'] });
		expect(shownFor('pastXDays')).toEqual({ ...phoneId, addons: ['portingHistory'] });
		expect(shownFor('inputUsed')).toEqual({ ...phoneId, addons: ['contactMatch'] });
		expect(shownFor('consent')).toEqual({ ...phoneId, addons: ['ageVerify', 'contact'] });
	});

	it('names the cost in every lookup\'s description and tool description', () => {
		const picker = actionNode.description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('phone'))!;
		for (const operation of Object.keys(ROUTES)) {
			const option = picker.options!.find((o) => (o as { value: string }).value === operation) as { description: string };
			expect(option.description).toMatch(/billed by the provider/i);
			expect(propertyOf('phone', operation, 'toolDescription').default).toMatch(/billed by the provider/i);
		}
	});

	it('as a tool, Get Risk Score gives the model the verdict, the reason codes and what the number is', async () => {
		const { items: out } = await emulator().run(actionTool, { resource: 'phone', operation: 'getRiskScore', phoneNumber: '+436509990001' } as never);
		expect(out[0].json).toEqual({
			lookup: { status: 'completed', statusCode: 300, statusDescription: 'Transaction successfully completed', referenceId: expect.any(String) },
			riskAssessment: { recommendation: 'flag', score: 520, level: 'medium', basis: 'recommendation' },
			reasonCodes: { status: 800, category: [10020], a2P: [20101], p2P: [30201], numberType: [40002], ip: [], email: [] },
			phoneType: 'VOIP',
			carrier: 'A1 Telekom Austria',
			country: 'AT',
		});
	});
});

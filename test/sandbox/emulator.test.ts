// The emulator refuses what the API refuses: a request a node builds wrongly fails the node suites
// instead of passing against a lenient stand-in. (Its answers are checked through the node suites.)
import axios from 'axios';
import { sleep } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
let token: string;
beforeAll(async () => (token = await emulator().token()));

const api = () => axios.create({ baseURL: emulator().baseUrl, validateStatus: () => true });
const control = () => emulator().control;
const bearer = (t: string = token) => ({ headers: { Authorization: `Bearer ${t}` } });
const post = (path: string, body: unknown, t?: string) => api().post(path, body, bearer(t));
const get = (path: string, t?: string) => api().get(path, bearer(t));

describe('API access', () => {
	it('requires a valid bearer token on API routes', async () => {
		const none = await api().post('/aml/checkIndividual', { name: 'x' });
		expect(none.status).toBe(401);
		expect(none.data).toEqual({ message: 'Missing access token' });
		const garbage = await post('/aml/checkIndividual', { name: 'x' }, 'garbage');
		expect(garbage.status).toBe(401);
		expect(garbage.data).toEqual({ message: 'Invalid access token' });
		const [h, p, s] = token.split('.');
		const tampered = await post('/aml/checkIndividual', { name: 'x' }, `${h}.${p}.${s.slice(0, -2)}AA`);
		expect(tampered.data).toEqual({ message: 'Invalid access token' });
	});

	it('a reset forgets a request still under way: the next test never counts it', async () => {
		await control().post('/config', { latencyMs: 300 });
		const slow = post('/aml/checkIndividual', { name: 'A B' });
		while ((await control().get('/stats')).data.inFlight === 0) await sleep(10);
		await control().post('/reset');
		expect((await slow).status).toBe(200);
		expect((await control().get('/stats')).data.total).toBe(0);
	});
});

/**
 * One request each, refused without any state: [route, body, status or undefined (not checked), what
 * the answer says: a part of its message, or the whole answer as an object].
 */
const REFUSALS: Array<[string, object, number | undefined, string | object]> = [
	['/aml/checkIndividual', { dob: '1980/01/01' }, 400, 'name'],
	['/aml/checkIndividual', { name: '   ' }, 400, ''],
	['/aml/checkIndividual', { name: 'A B', dob: '1980-01-01' }, 400, 'dob'],
	['/aml/checkIndividual', { name: 'A B', dob: '2023/02/29' }, 400, ''],
	['/aml/checkIndividual', { name: 'Forbidden Person' }, 403, { message: 'Forbidden' }],
	['/aml/checkIndividual', { name: 'Explode Server' }, 500, { message: 'Internal server error' }],
	['/kyb/company/details', { transactionId: 'nope', companyId: 'US-DE-5551234' }, 404, ''],
	['/kyb/company/details', { companyId: 'XX-nobody' }, undefined, { message: 'Company not found' }],
	['/kyb/search', { name: 'x', country: 'de' }, 400, ''],
	['/kyb/search', {}, 400, ''],
	['/kyb/search', { name: 'x', registrationNumber: ' ' }, undefined, { message: 'registrationNumber must not be blank' }],
	['/kyb/company/document/retrieve', {}, undefined, { message: 'linkToken is required' }],
	['/addImage', { journeyId: 'missing', imageName: 'a.jpg', imageSide: 'back', imageData: 'AAAA' }, 404, { message: 'Journey not found' }],
	['/verify/age', { journeyId: 'missing', ageFrom: 18 }, 404, ''],
	['/verify', { journeyId: 'missing' }, 404, { message: 'Journey not found' }],
	['/verify', {}, undefined, 'journeyId'],
	['/phone-service/verification', { method: 'sms', phoneNumber: '12345' }, 400, 'phoneNumber'],
	['/phone-service/verification', { method: 'email' }, undefined, 'email'],
	['/phone-service/verification', { method: 'fax' }, undefined, 'method'],
	['/phone-service/verification', { method: 'sms', phoneNumber: '491511234567', securityFactor: '12' }, undefined, 'securityFactor'],
	['/phone-service/verification', { method: 'sms', phoneNumber: '491511234567', externalId: 'x'.repeat(101) }, undefined, 'externalId'],
];

describe('refusals that need no state', () => {
	it.each(REFUSALS)('POST %s %j', async (path, body, status, said) => {
		const res = await post(path, body);
		if (status !== undefined) expect(res.status).toBe(status);
		if (typeof said === 'string') expect(res.data.message).toContain(said);
		else expect(res.data).toEqual(said);
	});
});

describe('AML', () => {
	it('takes search constraints only in the newer form, with countries, and a dateOfBirth after 1900', async () => {
		await control().post('/config', { generation: 'g3' });
		const refused = async (body: object) => (await post('/aml/checkIndividual', { name: 'A B', ...body })).data.message;
		expect(await refused({ datasets: 'OFAC-SDN' })).toBe('countries is required with search constraints');
		expect(await refused({ countries: 'NL', dob: '1980/01/01' })).toBe('dob is not part of the search-constraints form: send dateOfBirth');
		expect(await refused({ countries: 'nl' })).toContain('countries must be comma-separated ISO 3166-1 alpha-2 codes');
		expect(await refused({ countries: 'NL', dateOfBirth: '1980/01/01' })).toContain('dateOfBirth must be YYYY-MM-DD or YYYY');
		expect(await refused({ countries: 'NL', dateOfBirth: '1900' })).toContain('after 1900');
		expect(await refused({ countries: 'NL', threshold: 70 })).toBe('threshold must be a number from 0 to 1');
		expect(await refused({ countries: 'NL', matchingMode: 'loose' })).toBe('matchingMode must be one of: exact, fuzzy');
		expect((await post('/aml/checkIndividual', { name: 'A B', countries: 'NL,GB', dateOfBirth: '1980' })).data).toEqual({
			status: true,
			data: { matchFound: false, search: { name: 'A B', countries: 'NL,GB', searchedAt: expect.any(String) } },
		});
	});

	it('registers and removes ongoing-monitoring profiles: names a text, never beside searchAll, flags as strings', async () => {
		const reg = await post('/aml/ongoingMonitoring/registerIndividual', {
			profileId: 'p-1',
			names: 'Max Mixed',
			gender: 'male',
			dob: '1975/07/07',
			fuzzySearch: 'false',
		});
		expect(reg.status).toBe(200);
		expect(reg.data).toBe('');
		expect((await control().get('/aml/profiles')).data).toEqual([
			{ profileId: 'p-1', names: 'Max Mixed', gender: 'male', dob: '1975/07/07', searchAll: null, fuzzySearch: false, registeredAt: expect.any(String) },
		]);

		const refused = async (body: object) => (await post('/aml/ongoingMonitoring/registerIndividual', { profileId: 'p-2', ...body })).data.message;
		expect(await refused({ names: ['Max Mixed'] })).toBe('names must be a string');
		expect(await refused({ names: 'Max Mixed', searchAll: 'true' })).toBe('searchAll cannot be combined with names');
		expect(await refused({})).toBe('names is required');
		expect(await refused({ names: 'Max Mixed', gender: 'MALE' })).toBe('gender must be one of: male, female, unknown');
		expect(await refused({ names: 'Max Mixed', fuzzySearch: true })).toBe('fuzzySearch must be the string "true" or "false"');
		expect((await post('/aml/ongoingMonitoring/registerIndividual', { names: 'Someone' })).data.message).toContain('profileId');

		const removed = await post('/aml/ongoingMonitoring/removeSearchProfile', { profileId: 'p-1' });
		expect(removed.status).toBe(200);
		expect((await control().get('/aml/profiles')).data).toEqual([]);
		expect((await post('/aml/ongoingMonitoring/removeSearchProfile', {})).status).toBe(400);
	});
	it('changes its lists between two checks: a record changed by id, a record added; reset restores them', async () => {
		const ids = async (name: string, dob?: string) => (await post('/aml/checkIndividual', { name, dob })).data.foundRecords.map((r: { id: string }) => r.id);
		const before = (await post('/aml/checkIndividual', { name: 'Carl Criminal' })).data.foundRecords[0];
		expect(await ids('Anna Newly')).toEqual([]);

		const changed = await control().post('/aml/records', {
			records: [
				{ id: 'AML-CRI-0001', positions: ['Leader of Example Gang (2024-)'] },
				{ id: 'AML-SAN-0900', sourceType: 'SANCTION', sourceId: 'UK-OFSI', name: 'Anna Newly', dateOfBirth: ['1990/02/03'] },
			],
		});
		expect(changed.data).toEqual({ records: 9 });
		const after = (await post('/aml/checkIndividual', { name: 'Carl Criminal' })).data.foundRecords[0];
		expect(after).toEqual({ ...before, positions: ['Leader of Example Gang (2024-)'] });
		expect(await ids('Anna Newly', '1990/02/03')).toEqual(['AML-SAN-0900']);
		expect(await ids('Anna Newly', '1991/02/03')).toEqual([]);
		expect((await post('/aml/checkIndividual', { name: 'Anna Newly' })).data.foundRecords[0]).toMatchObject({ entityType: 'INDIVIDUAL', aliasNames: [], sourceId: 'UK-OFSI' });

		const refused = await control().post('/aml/records', { records: [{ id: 'AML-SAN-0901', sourceType: 'SANCTION' }] });
		expect([refused.status, refused.data.message]).toEqual([400, 'record AML-SAN-0901 needs a name (a non-blank string)']);
		expect((await control().post('/aml/records', { records: [{ name: 'No Id' }] })).status).toBe(400);
		expect((await control().get('/aml/records')).data).toHaveLength(9);

		await control().post('/reset');
		expect((await post('/aml/checkIndividual', { name: 'Carl Criminal' })).data.foundRecords[0]).toEqual(before);
		expect(await ids('Anna Newly')).toEqual([]);
	});
});

describe('KYB', () => {
	it('answers 404 for a company outside the transaction and 400 for bad includes', async () => {
		const search = await post('/kyb/search', { name: 'Globex' });
		const { transactionId } = search.data.companies[0];
		const other = await post('/kyb/company/details', { transactionId, companyId: 'DE-HRB-123456' });
		expect(other.status).toBe(404);
		expect(other.data).toEqual({ message: 'Company not found for this transaction' });
		const badType = await post('/kyb/company/details', { transactionId, companyId: 'US-DE-5551234', include: { officers: 'yes' } });
		expect(badType.status).toBe(400);
		expect(badType.data.message).toContain('include.officers');
		const badKey = await post('/kyb/company/details', { transactionId, companyId: 'US-DE-5551234', include: { pets: true } });
		expect(badKey.status).toBe(400);
		expect(badKey.data.message).toContain('include.pets');
	});
});

describe('Payments', () => {
	const deposit = {
		amount: '0.01',
		currency: 'EUR',
		description: 'challenge-001',
		firstName: 'Anna',
		lastName: 'Schmidt',
		piiToggle: 1,
		nameMatchLogic: 'exact',
	};

	it('validates every field', async () => {
		const cases: Array<[string, unknown]> = [
			['amount', '1.234'],
			['currency', 'EURO'],
			['description', 'has space'],
			['firstName', ' '],
			['piiToggle', 2],
			['nameMatchLogic', 'loose'],
		];
		for (const [field, value] of cases) {
			const res = await post('/payments/challenge-deposit', { ...deposit, [field]: value });
			expect(res.status).toBe(400);
			expect(res.data.message).toContain(field);
		}
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the property is left out on purpose
		const { lastName: _omit, ...missing } = deposit;
		const res = await post('/payments/challenge-deposit', missing);
		expect(res.status).toBe(400);
		expect(res.data.message).toContain('lastName');
	});
});

describe('Document verification', () => {
	it('rejects bad input', async () => {
		const { journeyId } = (await post('/openJourney', {})).data;
		const badData = await post('/addImage', { journeyId, imageName: 'a.jpg', imageSide: 'front', imageData: 'not base64!' });
		expect(badData.status).toBe(400);
		expect(badData.data.message).toContain('imageData');
		const badSide = await post('/addImage', { journeyId, imageName: 'a.jpg', imageSide: 'side', imageData: 'AAAA' });
		expect(badSide.data.message).toContain('imageSide');
		const both = await post('/verify/age', { journeyId, ageFrom: 18, ageTo: 65 });
		expect(both.status).toBe(400);
		expect(both.data.message).toBe('ageFrom and ageTo cannot be combined');
		expect((await post('/verify/age', { journeyId, ageFrom: 18, minDisabilityPercentage: 101 })).status).toBe(400);
	});

	it('/verify refuses a journey without images', async () => {
		const { journeyId } = (await post('/openJourney', {})).data;
		expect((await post('/verify', { journeyId })).status).toBe(400);
	});
});

describe('QES onboarding', () => {
	it('creates a pending session link and validates its fields (https docUrl, E.164 phone, form arrays)', async () => {
		const link = {
			email: 'erika@example.com',
			phoneNumber: '+4915112345678',
			redirectUrl: 'https://example.com/done',
			docUrl: 'https://example.com/contract.pdf',
			signForms: [{ fieldId: 'sig1', actorId: 'userToIdentify' }],
			fillForm: [{ fieldId: 'name', value: '${identification.firstName}' }],
		};
		const res = await post('/onboarding/createSessionLink', link);
		expect(res.status).toBe(200);
		const { requestId, url, expiresAfter } = res.data.data;
		expect(requestId).toMatch(/^qes-[0-9a-f]{16}$/);
		expect(url).toBe(`${emulator().url}/sign/${requestId}`);
		expect(Date.parse(expiresAfter)).toBeGreaterThan(Date.now());
		expect((await get(`/onboarding/getVerification/${requestId}`)).data.data).toMatchObject({ status: 'pending', isVerified: false });
		expect((await axios.get(url, { validateStatus: () => true })).status).toBe(200);

		const cases: Array<[string, unknown, string]> = [
			['docUrl', 'http://example.com/contract.pdf', 'docUrl'],
			['phoneNumber', '4915112345678', 'phoneNumber'],
			['phoneNumber', '+0123456789', 'phoneNumber'],
			['redirectUrl', 'done', 'redirectUrl'],
			['signForms', { fieldId: 'x' }, 'signForms'],
			['signForms', [{ fieldId: 'x' }], 'signForms[0].actorId'],
			['fillForm', [{ fieldId: ' ', value: 'v' }], 'fillForm[0].fieldId'],
		];
		for (const [field, value, named] of cases) {
			const bad = await post('/onboarding/createSessionLink', { ...link, [field]: value });
			expect(bad.status).toBe(400);
			expect(bad.data.message).toContain(named);
		}
	});
});

import axios, { AxiosInstance } from 'axios';
import { createHash } from 'crypto';
import * as http from 'http';
import { AddressInfo } from 'net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');

type Sandbox = { url: string; baseUrl: string; port: number; close(): Promise<void> };

let sandbox: Sandbox;
let api: AxiosInstance;
let control: AxiosInstance;
let token: string;

const authHeaders = {
	'Api-Key': SANDBOX_API_KEY as string,
	'Customer-Id': SANDBOX_CUSTOMER_ID as string,
	'Content-Type': 'application/x-www-form-urlencoded',
};

async function getToken(): Promise<string> {
	const res = await api.post('/auth', '', { headers: authHeaders });
	expect(res.status).toBe(200);
	return res.data.access_token;
}

const bearer = (t: string = token) => ({ headers: { Authorization: `Bearer ${t}` } });
const post = (path: string, body: unknown, t?: string) => api.post(path, body, bearer(t));
const get = (path: string, t?: string) => api.get(path, bearer(t));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function decodeJwtPart(part: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

beforeAll(async () => {
	sandbox = await startSandbox();
	api = axios.create({ baseURL: sandbox.baseUrl, validateStatus: () => true });
	control = axios.create({ baseURL: `${sandbox.url}/__control`, validateStatus: () => true });
	token = await getToken();
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(async () => {
	const res = await control.post('/reset');
	expect(res.status).toBe(200);
});

describe('startSandbox', () => {
	it('exposes url, baseUrl and port', () => {
		expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
		expect(sandbox.baseUrl).toBe(`${sandbox.url}/api/services`);
	});
});

describe('POST /auth', () => {
	it('issues an HS256 JWT for the sandbox credentials', async () => {
		const res = await api.post('/auth', '', { headers: authHeaders });
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
		const [header, payload, signature] = res.data.access_token.split('.');
		expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(decodeJwtPart(header)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
		const claims = decodeJwtPart(payload);
		expect(claims.customerId).toBe(SANDBOX_CUSTOMER_ID);
		expect((claims.exp as number) - (claims.iat as number)).toBeGreaterThanOrEqual(3599);
		expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(3600);
	});

	it('rejects a wrong key or customer id without echoing the key', async () => {
		const wrong = await api.post('/auth', '', { headers: { ...authHeaders, 'Api-Key': 'not-the-key' } });
		expect(wrong.status).toBe(401);
		expect(wrong.data).toEqual({ message: 'Invalid API key or customer id' });
		expect(JSON.stringify(wrong.data)).not.toContain('not-the-key');
		const wrongCustomer = await api.post('/auth', '', { headers: { ...authHeaders, 'Customer-Id': 'nobody' } });
		expect(wrongCustomer.status).toBe(401);
		const missing = await api.post('/auth', '', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
		expect(missing.status).toBe(401);
		expect(typeof missing.data.message).toBe('string');
	});

	it('requires a valid bearer token on API routes', async () => {
		const none = await api.post('/aml/checkIndividual', { name: 'x' });
		expect(none.status).toBe(401);
		expect(none.data).toEqual({ message: 'Missing access token' });
		const garbage = await post('/aml/checkIndividual', { name: 'x' }, 'garbage');
		expect(garbage.status).toBe(401);
		expect(garbage.data).toEqual({ message: 'Invalid access token' });
		const [h, p, s] = token.split('.');
		const tampered = await post('/aml/checkIndividual', { name: 'x' }, `${h}.${p}.${s.slice(0, -2)}AA`);
		expect(tampered.data).toEqual({ message: 'Invalid access token' });
	});

	it('expires tokens after a short configured lifetime', async () => {
		expect((await control.post('/config', { tokenLifetimeSeconds: 0.3 })).status).toBe(200);
		const auth = await api.post('/auth', '', { headers: authHeaders });
		expect(auth.data.expires_in).toBe(0.3);
		const short = auth.data.access_token;
		expect((await get('/KYB/countries', short)).status).toBe(200);
		await sleep(350);
		const expired = await get('/KYB/countries', short);
		expect(expired.status).toBe(401);
		expect(expired.data).toEqual({ message: 'Access token expired' });
	});
});

describe('AML', () => {
	it('validates name and dob and answers 403 / 500 for the trigger names', async () => {
		const noName = await post('/aml/checkIndividual', { dob: '1980/01/01' });
		expect(noName.status).toBe(400);
		expect(noName.data.message).toContain('name');
		const blank = await post('/aml/checkIndividual', { name: '   ' });
		expect(blank.status).toBe(400);
		const badDob = await post('/aml/checkIndividual', { name: 'A B', dob: '1980-01-01' });
		expect(badDob.status).toBe(400);
		expect(badDob.data.message).toContain('dob');
		expect((await post('/aml/checkIndividual', { name: 'A B', dob: '2023/02/29' })).status).toBe(400);
		const forbidden = await post('/aml/checkIndividual', { name: 'Forbidden Person' });
		expect(forbidden.status).toBe(403);
		expect(forbidden.data).toEqual({ message: 'Forbidden' });
		const boom = await post('/aml/checkIndividual', { name: 'Explode Server' });
		expect(boom.status).toBe(500);
		expect(boom.data).toEqual({ message: 'Internal server error' });
	});

	it('takes search constraints only in the newer form, with countries, and a dateOfBirth after 1900', async () => {
		await control.post('/config', { generation: 'g3' });
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
		expect((await control.get('/aml/profiles')).data).toEqual([
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
		expect((await control.get('/aml/profiles')).data).toEqual([]);
		expect((await post('/aml/ongoingMonitoring/removeSearchProfile', {})).status).toBe(400);
	});
});

describe('KYB', () => {
	it('answers 404 for a company outside the transaction and 400 for bad includes', async () => {
		const search = await post('/kyb/search', { name: 'Globex' });
		const { transactionId } = search.data.companies[0];
		const other = await post('/kyb/company/details', { transactionId, companyId: 'DE-HRB-123456' });
		expect(other.status).toBe(404);
		expect(other.data).toEqual({ message: 'Company not found for this transaction' });
		const unknownTx = await post('/kyb/company/details', { transactionId: 'nope', companyId: 'US-DE-5551234' });
		expect(unknownTx.status).toBe(404);
		const badType = await post('/kyb/company/details', { transactionId, companyId: 'US-DE-5551234', include: { officers: 'yes' } });
		expect(badType.status).toBe(400);
		expect(badType.data.message).toContain('include.officers');
		const badKey = await post('/kyb/company/details', { transactionId, companyId: 'US-DE-5551234', include: { pets: true } });
		expect(badKey.status).toBe(400);
		expect(badKey.data.message).toContain('include.pets');
		expect((await post('/kyb/company/details', { companyId: 'XX-nobody' })).data).toEqual({ message: 'Company not found' });
		expect((await post('/kyb/search', { name: 'x', country: 'de' })).status).toBe(400);
		expect((await post('/kyb/search', {})).status).toBe(400);
		expect((await post('/kyb/search', { name: 'x', registrationNumber: ' ' })).data.message).toBe('registrationNumber must not be blank');
		expect((await post('/kyb/company/document/retrieve', {})).data.message).toBe('linkToken is required');
	});

	it('pages company profiles and lists countries', async () => {
		const first = await get('/KYB/companyProfile');
		expect(first.status).toBe(200);
		expect(first.data).toMatchObject({ error: false, version: '1.0.0' });
		expect(first.data.data.kybRequestData).toHaveLength(10);
		expect(first.data.data.pagination).toEqual({ total: 23, perPage: 10, currentPage: 1, lastPage: 3, from: 1, to: 10 });
		const last = await get('/KYB/companyProfile?page=3&limit=10');
		expect(last.data.data.kybRequestData).toHaveLength(3);
		expect(last.data.data.pagination).toMatchObject({ from: 21, to: 23 });
		expect((await get('/KYB/companyProfile?page=0')).status).toBe(400);
		expect((await get('/KYB/companyProfile?limit=abc')).status).toBe(400);

		const countries = await get('/KYB/countries');
		expect(countries.status).toBe(200);
		expect(countries.data.data.countries.length).toBeGreaterThanOrEqual(15);
		expect(countries.data.data.countries[0]).toEqual(
			expect.objectContaining({ countryName: expect.any(String), countryCode: expect.any(String), states: expect.any(Array) }),
		);
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

	it('runs a challenge deposit with deterministic outcomes', async () => {
		const res = await post('/payments/challenge-deposit', deposit);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			description: 'challenge-001',
			status: 'OK',
			nameMatchScore: 100,
			iban: 'DE89370400440532013000',
			globalResult: { overall: 'review', totalScore: 100 },
			returnedFirstName: 'Anna',
			returnedLastName: 'Schmidt',
		});
		const noPii = await post('/payments/challenge-deposit', { ...deposit, piiToggle: 0, firstName: 'Ana', nameMatchLogic: 'fuzzy' });
		expect(noPii.data).not.toHaveProperty('returnedFirstName');
		expect(noPii.data.nameMatchScore).toBeGreaterThan(50);
		expect(noPii.data.nameMatchScore).toBeLessThan(100);
		const fail = await post('/payments/challenge-deposit', { ...deposit, lastName: 'Fail' });
		expect(fail.data.status).toBe('FAIL');
	});

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
		const { lastName: _omit, ...missing } = deposit;
		const res = await post('/payments/challenge-deposit', missing);
		expect(res.status).toBe(400);
		expect(res.data.message).toContain('lastName');
	});
});

describe('Document verification', () => {
	it('opens a journey, stores images and verifies age and disability', async () => {
		const open = await post('/openJourney', { passThroughData: { caseId: 'c-1' } });
		expect(open.status).toBe(200);
		expect(open.data.journeyId).toMatch(/^[0-9a-f-]{36}$/);
		expect(open.data.passThroughData).toEqual({ caseId: 'c-1' });
		const { journeyId } = open.data;

		const bytes = Buffer.from('fake-jpeg-bytes-\u0000\u0001\u0002');
		const add = await post('/addImage', { journeyId, imageName: 'front.jpg', imageSide: 'front', imageData: bytes.toString('base64') });
		expect(add.status).toBe(200);
		expect(add.data).toEqual({ journeyId, imageSide: 'front', imageName: 'front.jpg', stored: true, sizeBytes: bytes.length });
		const journey = await control.get(`/journeys/${journeyId}`);
		expect(journey.data.images[0].sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

		const yes = await post('/verify/age', { journeyId, ageFrom: 18, minDisabilityPercentage: 50 });
		expect(yes.data).toEqual({ journeyId, status: 'ageAndDisabilityVerificationComplete', ageResult: 'yes', disabilityResult: 'eligible' });
		const no = await post('/verify/age', { journeyId, ageTo: 30, minDisabilityPercentage: 80 });
		expect(no.data).toMatchObject({ ageResult: 'no', disabilityResult: 'not eligible' });
	});

	it('rejects bad input and unknown journeys', async () => {
		const { journeyId } = (await post('/openJourney', {})).data;
		const badData = await post('/addImage', { journeyId, imageName: 'a.jpg', imageSide: 'front', imageData: 'not base64!' });
		expect(badData.status).toBe(400);
		expect(badData.data.message).toContain('imageData');
		const badSide = await post('/addImage', { journeyId, imageName: 'a.jpg', imageSide: 'side', imageData: 'AAAA' });
		expect(badSide.data.message).toContain('imageSide');
		const unknown = await post('/addImage', { journeyId: 'missing', imageName: 'a.jpg', imageSide: 'back', imageData: 'AAAA' });
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ message: 'Journey not found' });
		const both = await post('/verify/age', { journeyId, ageFrom: 18, ageTo: 65 });
		expect(both.status).toBe(400);
		expect(both.data.message).toBe('ageFrom and ageTo cannot be combined');
		expect((await post('/verify/age', { journeyId, ageFrom: 18, minDisabilityPercentage: 101 })).status).toBe(400);
		expect((await post('/verify/age', { journeyId: 'missing', ageFrom: 18 })).status).toBe(404);
	});
});

describe('Document verification: /verify', () => {
	it('answers the vendor shape with the latest image of each side as crops, byte for byte (portrait from the front)', async () => {
		const { journeyId } = (await post('/openJourney', {})).data;
		const first = Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]);
		const front = Buffer.from([0xff, 0xd8, 0xff, 4, 5, 6, 7]);
		const selfie = Buffer.from([0x89, 0x50, 0x4e, 0x47, 9]);
		for (const [imageSide, bytes] of [['front', first], ['front', front], ['selfie', selfie]] as const) {
			expect((await post('/addImage', { journeyId, imageName: `${imageSide}.img`, imageSide, imageData: bytes.toString('base64') })).status).toBe(200);
		}
		const res = await post('/verify', { journeyId });
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			journeyId,
			status: 'verificationComplete',
			identitySubject: { type: 'PERSON', fullName: 'Erika Mustermann', dob: '1990/08/12', nameStructure: { firstName: 'Erika', lastName: 'Mustermann' } },
			authoritativeData: { identityDocument: { type: 'ID_CARD', idNumber: 'L01X00T47', expirationDate: '2031/08/11' } },
			proofOfWork: { type: 'DOCUMENT_VERIFICATION' },
			auditTrail: { workStatus: 'PASS' },
			fraudAlerts: { fraudAlertDetail: [], aggregateFraudAlertScore: 0 },
		});
		expect(res.data.croppedImages).toEqual({
			portrait: front.toString('base64'),
			front: front.toString('base64'),
			selfie: selfie.toString('base64'),
		});
		// The control view of the journey does not carry the bytes.
		expect((await control.get(`/journeys/${journeyId}`)).data.imageData).toBeUndefined();
	});

	it('refuses a journey without images and an unknown journey', async () => {
		const { journeyId } = (await post('/openJourney', {})).data;
		expect((await post('/verify', { journeyId })).status).toBe(400);
		const unknown = await post('/verify', { journeyId: 'missing' });
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ message: 'Journey not found' });
		expect((await post('/verify', {})).data.message).toContain('journeyId');
	});
});

describe('Phone verification', () => {
	it('validates the request variants', async () => {
		const shortPhone = await post('/phone-service/verification', { method: 'sms', phoneNumber: '12345' });
		expect(shortPhone.status).toBe(400);
		expect(shortPhone.data.message).toContain('phoneNumber');
		expect((await post('/phone-service/verification', { method: 'email' })).data.message).toContain('email');
		expect((await post('/phone-service/verification', { method: 'fax' })).data.message).toContain('method');
		const badOtp = await post('/phone-service/verification', { method: 'sms', phoneNumber: '491511234567', securityFactor: '12' });
		expect(badOtp.data.message).toContain('securityFactor');
		const longId = await post('/phone-service/verification', { method: 'sms', phoneNumber: '491511234567', externalId: 'x'.repeat(101) });
		expect(longId.data.message).toContain('externalId');
	});
});

describe('QES onboarding and webhook pings', () => {
	let receiver: http.Server;
	let receiverUrl: string;
	const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

	beforeAll(async () => {
		receiver = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c) => (body += c));
			req.on('end', () => {
				received.push({ headers: req.headers, body });
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify({ ok: true }));
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
	});

	afterAll(async () => {
		receiver.closeAllConnections();
		await new Promise((resolve) => receiver.close(resolve));
	});

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
		expect(url).toBe(`${sandbox.url}/sign/${requestId}`);
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

	it('returns sessions in their states and serves the signed document', async () => {
		const done = await get('/onboarding/getVerification/qes-completed-001');
		expect(done.status).toBe(200);
		expect(done.data.data).toMatchObject({ isVerified: true, status: 'completed', requestId: 'qes-completed-001' });
		const item = done.data.data.signature.content[0];
		expect(item.plainResource).toMatchObject({ family: 'DOCUMENT_TO_SIGN', mimeType: 'application/pdf' });
		expect(item.signedResource.resourceUrl).toBe(`${sandbox.url}/files/signed/qes-completed-001.pdf`);
		expect(Date.parse(item.signedResource.urlValidBefore)).toBeGreaterThan(Date.now());
		expect(done.data.data.identification.personData.documentDetails).toHaveProperty('issuanceCountry');

		const file = await axios.get(item.signedResource.resourceUrl, { responseType: 'arraybuffer', validateStatus: () => true });
		expect(file.status).toBe(200);
		expect(file.headers['content-type']).toBe('application/pdf');
		expect(file.headers['content-disposition']).toBe('attachment; filename="qes-completed-001.pdf"');
		expect(Buffer.from(file.data).length).toBe(item.signedResource.sizeBytes);
		expect(Buffer.from(file.data).subarray(0, 5).toString()).toBe('%PDF-');

		const pending = await get('/onboarding/getVerification/qes-pending-002');
		expect(pending.data.data).toMatchObject({ isVerified: false, status: 'pending' });
		expect(pending.data.data.signature.content[0].signedResource).toBeNull();
		const rejected = await get('/onboarding/getVerification/qes-rejected-003');
		expect(rejected.data.data).toMatchObject({ isVerified: false, status: 'rejected' });
		const unknown = await get('/onboarding/getVerification/nope');
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ message: 'Session not found' });
	});

	it('stores the webhook and delivers pings with the auth headers', async () => {
		expect((await control.post('/qes/ping', { sessionId: 'qes-completed-001' })).status).toBe(409);
		expect((await post('/onboarding/configureWebhook', { webhookUrl: 'ftp://example.com/x' })).status).toBe(400);

		const configured = await post('/onboarding/configureWebhook', {
			webhookUrl: receiverUrl,
			metadata: { authHeader: { 'X-Webhook-Secret': 's3cret', Authorization: 'Bearer hook-token' } },
		});
		expect(configured.status).toBe(200);
		expect(configured.data).toMatchObject({ status: true, data: { url: receiverUrl } });
		expect(configured.data.data.id).toBeTruthy();
		expect((await control.get('/webhook')).data.metadata.authHeader['X-Webhook-Secret']).toBe('s3cret');

		received.length = 0;
		const pinged = await control.post('/qes/ping', { sessionId: 'qes-completed-001', extra: { attempt: 1 } });
		expect(pinged.data).toEqual({ delivered: true, status: 200, body: { ok: true } });
		expect(received).toHaveLength(1);
		expect(received[0].headers['x-webhook-secret']).toBe('s3cret');
		expect(received[0].headers.authorization).toBe('Bearer hook-token');
		expect(received[0].headers['content-type']).toBe('application/json');
		expect(JSON.parse(received[0].body)).toMatchObject({
			event: 'qes.status',
			sessionId: 'qes-completed-001',
			requestId: 'qes-completed-001',
			status: 'completed',
			attempt: 1,
		});

		const changed = await control.post('/qes/sessions/qes-new-777/state', { status: 'completed' });
		expect(changed.status).toBe(200);
		expect(changed.data.delivery.delivered).toBe(true);
		expect(JSON.parse(received[1].body)).toMatchObject({ sessionId: 'qes-new-777', status: 'completed' });
		const now = await get('/onboarding/getVerification/qes-new-777');
		expect(now.data.data).toMatchObject({ isVerified: true, status: 'completed' });
	});
});

describe('controls', () => {
	it('rate limits API routes (not /auth) with Retry-After', async () => {
		await control.post('/config', { rateLimit: { requestsPerSecond: 3 } });
		for (let i = 0; i < 3; i += 1) expect((await get('/KYB/countries')).status).toBe(200);
		const limited = await get('/KYB/countries');
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('1');
		expect(limited.data).toEqual({ error: 'Too Many Requests', message: 'Rate limit exceeded', code: '429' });
		expect((await api.post('/auth', '', { headers: authHeaders })).status).toBe(200);
		const stats = await control.get('/stats');
		expect(stats.data.status['429']).toBe(1);
	});

	it('injects failures for a number of requests', async () => {
		await control.post('/config', { failures: [{ route: 'POST /aml/checkIndividual', status: 503, count: 2 }] });
		const a = await post('/aml/checkIndividual', { name: 'Jane Nobody' });
		const b = await post('/aml/checkIndividual', { name: 'Jane Nobody' });
		const c = await post('/aml/checkIndividual', { name: 'Jane Nobody' });
		expect([a.status, b.status, c.status]).toEqual([503, 503, 200]);
		expect(a.data).toEqual({ error: 'Service Unavailable', message: 'Service temporarily unavailable', code: '503' });
		await control.post('/config', { failures: [{ route: 'GET /KYB/countries', status: 429, count: 1 }] });
		const limited = await get('/KYB/countries');
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('1');
		expect((await control.post('/config', { bogus: 1 })).status).toBe(400);
	});

	it('counts requests per route and status, and the concurrency peak', async () => {
		await control.post('/config', { latencyMs: 60 });
		await Promise.all(Array.from({ length: 5 }, () => get('/onboarding/getVerification/qes-pending-002')));
		await post('/aml/checkIndividual', {});
		const stats = (await control.get('/stats')).data;
		expect(stats.counts['GET /onboarding/getVerification/:sessionId']).toBe(5);
		expect(stats.counts['POST /aml/checkIndividual']).toBe(1);
		expect(stats.status).toEqual({ 200: 5, 400: 1 });
		expect(stats.total).toBe(6);
		expect(stats.maxConcurrent).toBeGreaterThanOrEqual(5);
	});

	it('logs requests with credentials redacted', async () => {
		await api.post('/auth', '', { headers: authHeaders });
		await post('/aml/checkIndividual', { name: 'Carl Criminal' });
		const authLog = (await control.get('/requests', { params: { route: 'POST /auth' } })).data;
		expect(authLog).toHaveLength(1);
		expect(authLog[0].headers['api-key']).toBe('[redacted]');
		expect(authLog[0].headers['customer-id']).toBe('[redacted]');
		const all = (await control.get('/requests')).data;
		expect(all.map((e: { route: string }) => e.route)).toEqual(['POST /auth', 'POST /aml/checkIndividual']);
		expect(all[1]).toMatchObject({ method: 'POST', path: '/aml/checkIndividual', status: 200, body: { name: 'Carl Criminal' } });
		expect(all[1].headers.authorization).toBe('[redacted]');
		const text = JSON.stringify(all);
		expect(text).not.toContain(SANDBOX_API_KEY);
		expect(text).not.toContain(token);
	});

	it('answers 404 for unknown routes and 400 for invalid JSON', async () => {
		const unknown = await get('/no/such/route');
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ message: 'Not found' });
		const invalid = await api.post('/aml/checkIndividual', '{"name": ', {
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			transformRequest: [(d: unknown) => d],
		});
		expect(invalid.status).toBe(400);
		expect(invalid.data).toEqual({ message: 'Invalid JSON body' });
	});

	it('reset restores the default config and clears state', async () => {
		await control.post('/config', { latencyMs: 5, rateLimit: { requestsPerSecond: 100 } });
		await post('/onboarding/configureWebhook', { webhookUrl: 'https://example.com/hook' });
		await control.post('/reset');
		const config = (await control.get('/config')).data;
		expect(config).toMatchObject({ tokenLifetimeSeconds: 3600, latencyMs: 0, rateLimit: null, failures: [] });
		expect((await control.get('/webhook')).status).toBe(404);
		expect((await control.get('/stats')).data.total).toBe(0);
	});
});

/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import { NodeApiError, type IDataObject, type IExecuteFunctions, type INodeParameters } from 'n8n-workflow';

import { listCompanyProfiles } from '../../nodes/VerificationServices/kyb/operations/listCompanyProfiles';
import { search } from '../../nodes/VerificationServices/kyb/operations/search';
import type { ApiRequest, ApiResponse, ItemContext } from '../../nodes/shared/operation/operation-types';
import { type RunOptions, GENERATIONS, actionNode, items, playing, propertyOf, resourceRun, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runKyb = resourceRun(emulator, 'kyb');
/** The node with Simplify (on by default) off: these tests read the whole answer. */
const whole = async (parameters: INodeParameters, options?: RunOptions) => await runKyb({ simple: false, ...parameters }, options);

/** Runs a search through the node and returns its first company item's ids. */
async function searchIds(name: string): Promise<{ transactionId: string; companyId: string }> {
	const out = succeeded(await whole({ operation: 'search', name }));
	const { transactionId, companyId } = out[0].json as { transactionId: string; companyId: string };
	return { transactionId, companyId };
}

describe.each(GENERATIONS)('KYB: Search Companies against %s', (generation) => {
	playing(emulator, generation);
	/** What the search answer holds beside the list: the envelope's status in g3, nothing in g2. */
	const envelope = generation === 'g3' ? { status: true } : {};

	it('sends {name} and outputs one item per company, each with companyId and transactionId', async () => {
		const out = succeeded(await whole({ operation: 'search', name: 'Acme' }));

		const sent = await emulator().requests('POST /kyb/search');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual({ name: 'Acme' });

		expect(out.map((i) => i.json.companyId)).toEqual(['DE-HRB-123456', 'GB-CH-01234567']);
		const transactionId = out[0].json.transactionId;
		expect(transactionId).toEqual(expect.any(String));
		for (const item of out) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.transactionId).toBe(transactionId);
			expect(item.json.search).toEqual({ ...envelope, name: 'Acme', resultCount: 2 });
		}
		// Every field the API returned for the company passes through.
		expect(out[0].json).toMatchObject({
			name: 'Acme Holdings GmbH',
			legalName: 'Acme Holdings GmbH',
			registrationNumber: 'HRB 123456',
			country: 'DE',
			status: 'active',
			legalForm: 'GmbH',
			score: 1,
		});
	});

	it('sends registrationNumber (trimmed) beside the name, and the country upper-cased', async () => {
		const out = succeeded(await whole({
			operation: 'search',
			name: 'Acme',
			country: 'de',
			registrationNumber: ' hrb123456 ',
		}));
		expect((await emulator().requests('POST /kyb/search'))[0].body).toEqual({ name: 'Acme', country: 'DE', registrationNumber: 'hrb123456' });
		expect(out.map((i) => i.json.companyId)).toEqual(['DE-HRB-123456']);
		expect(out[0].json.search).toEqual({ ...envelope, name: 'Acme', country: 'DE', registrationNumber: 'hrb123456', resultCount: 1 });
	});

	it('outputs {found: false} paired with its input when "Output an Item When Nothing Is Found" is on', async () => {
		const out = succeeded(await whole(
			{ operation: 'search', name: '={{ $json.company }}', registrationNumber: '={{ $json.number }}', options: { outputWhenNotFound: true } },
			{ input: items({ company: 'Acme', number: '01234567' }, { company: 'Acme', number: '99999999' }) },
		));
		expect(out.map((i) => [i.json.companyId, i.json.found, i.pairedItem])).toEqual([
			['GB-CH-01234567', undefined, { item: 0 }],
			[undefined, false, { item: 1 }],
		]);
		expect(out[1].json.search).toEqual({ ...envelope, name: 'Acme', registrationNumber: '99999999', resultCount: 0 });
	});
});

describe('KYB: Search Companies', () => {
	it('pairs the companies of several input items with their input', async () => {
		const out = succeeded(await whole(
			{ operation: 'search', name: '={{ $json.company }}' },
			{ input: items({ company: 'Acme' }, { company: 'Globex' }) },
		));
		expect(out.map((i) => [i.json.companyId, i.pairedItem])).toEqual([
			['DE-HRB-123456', { item: 0 }],
			['GB-CH-01234567', { item: 0 }],
			['US-DE-5551234', { item: 1 }],
		]);
		expect(await emulator().bodies('POST /kyb/search')).toEqual([{ name: 'Acme' }, { name: 'Globex' }]);
	});

	it('leaves an empty literal name to n8n, which refuses to start the node', async () => {
		const { error } = await whole({ operation: 'search', name: '' });
		expect(error?.message).toContain('Parameter "Company Name" is required');
		expect((await emulator().stats()).total).toBe(0);
	});

	describe('reads the company list wherever the API generation puts it', () => {
		const ctx = { getNodeParameter: () => false } as unknown as IExecuteFunctions;
		const itemContext = { ctx, itemIndex: 0, values: { name: 'Acme' } } as unknown as ItemContext;
		const toItems = (body: unknown) => search.toItems!({ statusCode: 200, headers: {}, body }, itemContext) as Array<{ json: IDataObject }>;
		const company = { companyId: 'C1', name: 'Acme' };

		it.each(['companies', 'results', 'matches', 'items'])('data.%s', (key) => {
			const out = toItems({ status: true, data: { [key]: [company], transactionId: 'T1', total: 1 } });
			expect(out).toHaveLength(1);
			// The search's own transactionId is copied onto the company; the rest of data stays beside it.
			expect(out[0].json).toEqual({
				companyId: 'C1',
				name: 'Acme',
				transactionId: 'T1',
				search: { status: true, data: { transactionId: 'T1', total: 1 }, name: 'Acme', resultCount: 1 },
			});
		});

		it('data itself as the list, transactionId at the top level', () => {
			const out = toItems({ transactionId: 'T2', data: [company, { companyId: 'C2', transactionId: 'OWN' }] });
			expect(out.map((i) => [i.json.companyId, i.json.transactionId])).toEqual([
				['C1', 'T2'],
				['C2', 'OWN'],
			]);
		});

		it('a bare array body, and an id named id', () => {
			const out = toItems([{ id: 'C3', transactionId: 'T3' }]);
			expect(out[0].json).toMatchObject({ id: 'C3', companyId: 'C3', transactionId: 'T3' });
		});

		it('a list at the top level without data wrapper, the transactionId in snake_case', () => {
			const out = toItems({ results: [company], transaction_id: 'T4' });
			expect(out[0].json).toMatchObject({ companyId: 'C1', transactionId: 'T4', search: { transaction_id: 'T4' } });
		});
	});
});

/** The linkTokens Get Company Details names for Acme Holdings with the transparency and documents packages, in the answer's order. */
const ACME_LINK_TOKENS = [
	{ linkToken: 'lt-DE-HRB-123456-ubo-1', package: 'transparency', name: 'Erika Musterfrau', type: 'BENEFICIAL_OWNER' },
	{ linkToken: 'lt-DE-HRB-123456-register-extract', package: 'documents', documentId: 'DE-HRB-123456-DOC-1', name: 'Register extract', type: 'REGISTER_EXTRACT', format: 'application/pdf', date: '2024-01-15' },
	{ linkToken: 'lt-DE-HRB-123456-articles', package: 'documents', documentId: 'DE-HRB-123456-DOC-2', name: 'Articles of association', type: 'ARTICLES_OF_ASSOCIATION', format: 'application/pdf', date: '2009-04-01' },
];

describe.each(GENERATIONS)('KYB: Get Company Details against %s', (generation) => {
	playing(emulator, generation);

	/** The packages of the record: beside the company (g3) or inside it (g2). */
	const packages = (json: IDataObject): IDataObject => {
		const data = json.data as IDataObject;
		return generation === 'g3' ? data : (data.company as IDataObject);
	};

	it('sends transactionId, companyId, only the chosen packages and timeoutMs; outputs the record and every linkToken it carries', async () => {
		const ids = await searchIds('Acme Holdings');
		const out = succeeded(await whole({
			operation: 'getDetails',
			transactionId: ids.transactionId,
			companyId: ids.companyId,
			include: ['officers', 'documents', 'transparency'],
			additionalFields: { timeoutMs: 5000 },
		}));
		const sent = await emulator().requests('POST /kyb/company/details');
		expect(sent.map((r) => r.body)).toEqual([
			{ transactionId: ids.transactionId, companyId: 'DE-HRB-123456', include: { documents: true, officers: true, transparency: true }, timeoutMs: 5000 },
		]);
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		const json = out[0].json;
		expect(json.status).toBe(generation === 'g3' ? true : 'success');
		expect((json.data as IDataObject).company).toMatchObject({ legalName: 'Acme Holdings GmbH', country: 'DE' });
		expect(packages(json).officers).toHaveLength(2);
		expect(packages(json).documents).toHaveLength(2);
		expect(packages(json).financials).toBeUndefined();
		expect(json.linkTokens).toEqual(ACME_LINK_TOKENS);
		if (generation === 'g3') expect(json.metadata).toMatchObject({ source: 'sandbox-registry', includedPackages: ['documents', 'officers', 'transparency'] });
		else expect(json).toMatchObject({ companyId: 'DE-HRB-123456', requestId: expect.any(String), timestamp: expect.any(String) });
	});

	it('works with only companyId: no transactionId, no include, no timeoutMs sent', async () => {
		const out = succeeded(await whole({ operation: 'getDetails', companyId: 'US-DE-5551234' }));
		expect(await emulator().bodies('POST /kyb/company/details')).toEqual([{ companyId: 'US-DE-5551234' }]);
		expect(((out[0].json.data as IDataObject).company as IDataObject).legalName).toBe('Globex Corporation');
		expect(out[0].json.linkTokens).toEqual([]);
	});
});

describe('KYB: Get Company Details', () => {
	it.each([
		[{ status: 'success', requestId: 'r1', data: {} }],
		[{ status: false, message: 'No company' }],
		[{ status: true, data: { company: null } }],
	])('a 200 without a company record is an error, never an empty record: %j', async (body) => {
		await emulator().configure({ failures: [{ route: 'POST /kyb/company/details', status: 200, raw: JSON.stringify(body), contentType: 'application/json' }] });
		const { error, items: out } = await whole({ operation: 'getDetails', companyId: 'US-DE-5551234' });
		expect(out).toEqual([]);
		expect(error!.message).toBe(`Get Company Details got an answer that is not a JSON object with company (HTTP 200): application/json, starting "${JSON.stringify(body)}"`);
	});
});

const RETRIEVE = 'POST /kyb/company/document/retrieve';

describe.each(GENERATIONS)('KYB: Retrieve Document against %s', (generation) => {
	playing(emulator, generation);

	it('a transparency-register entry answered as JSON is output as it is, without binary', async () => {
		const out = succeeded(await whole({ operation: 'retrieveDocument', linkToken: 'lt-DE-HRB-123456-ubo-1' }));
		const entry = {
			linkToken: 'lt-DE-HRB-123456-ubo-1',
			companyId: 'DE-HRB-123456',
			entry: {
				type: 'BENEFICIAL_OWNER',
				name: 'Erika Musterfrau',
				ownershipPercentage: 25,
				country: 'DE',
				register: 'DE transparency register',
				linkToken: 'lt-DE-HRB-123456-ubo-1',
			},
			retrievedAt: expect.any(String),
		};
		expect(out[0].json).toEqual(generation === 'g3' ? { status: true, data: entry } : entry);
		expect(out[0].binary).toBeUndefined();
	});
});

describe('KYB: Retrieve Document', () => {
	it('an unknown linkToken is the API 404 with its message', async () => {
		const { error } = await whole({ operation: 'retrieveDocument', linkToken: 'lt-nothing' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('Retrieve Document failed with HTTP 404: Document not found');
	});

	it.each([
		['<html><body>Maintenance</body></html>', 'text/html; charset=utf-8', 'text/html, starting "<html><body>Maintenance</body></html>"'],
		['', 'application/pdf', 'an empty body (application/pdf)'],
		['[1,2]', 'application/json', 'application/json, starting "[1,2]"'],
	])('a 200 with %p (%s) is an error, never a document', async (raw, contentType, arrived) => {
		await emulator().configure({ failures: [{ route: RETRIEVE, status: 200, raw, contentType }] });
		const { error, items: out } = await whole({ operation: 'retrieveDocument', linkToken: 'lt-DE-HRB-123456-articles' });
		expect(out).toEqual([]);
		expect(error!.message).toBe(`Retrieve Document got an answer that is not a JSON object or a file (HTTP 200): ${arrived}`);
	});
});

describe('KYB: List Company Profiles', () => {
	const route = 'GET /KYB/companyProfile';

	it.each([
		['returns the first 50 by default in one request with page and limit', {}, { page: '1', limit: '50' }],
		['Return All with the default page size asks for 100 per page', { returnAll: true }, { page: '1', limit: '100' }],
	])('%s', async (_what, parameters, query) => {
		const out = succeeded(await whole({ operation: 'listCompanyProfiles', ...parameters }));
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([query]);
		expect(out).toHaveLength(23);
		expect(out.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Limit stops across pages as soon as it is reached', async () => {
		const out = succeeded(await whole({
			operation: 'listCompanyProfiles',
			returnAll: false,
			limit: 15,
			options: { pageSize: 10 },
		}));
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([
			{ page: '1', limit: '10' },
			{ page: '2', limit: '10' },
		]);
		expect(out.map((i) => i.json.id)).toEqual(Array.from({ length: 15 }, (_, i) => `kyb-profile-${String(i + 1).padStart(3, '0')}`));
	});

	describe('stops paging when the API gives no usable pagination', () => {
		async function pages(bodies: unknown[], values: IDataObject) {
			const requests: ApiRequest[] = [];
			const send = async (request: ApiRequest): Promise<ApiResponse> => {
				requests.push(request);
				return { statusCode: 200, headers: {}, body: bodies[requests.length - 1] ?? { data: { kybRequestData: [] } } };
			};
			const ctx = { getNode: () => ({ name: 'KYB Company Data' }) };
			const out = await listCompanyProfiles.run!({ ctx, itemIndex: 0, values, send } as unknown as ItemContext, { method: 'GET', path: '/KYB/companyProfile' });
			return { out, requests };
		}
		const page = (ids: string[], pagination?: IDataObject) => ({ data: { kybRequestData: ids.map((id) => ({ id })), pagination } });

		it('no pagination block: one request', async () => {
			const { out, requests } = await pages([page(['a', 'b'])], { returnAll: true, pageSize: 2 });
			expect(out).toHaveLength(2);
			expect(requests).toHaveLength(1);
		});

		it('the API ignored the page asked for: an error, and no profile output twice', async () => {
			const answers = [page(['a', 'b'], { currentPage: 1, lastPage: 3 }), page(['a', 'b'], { currentPage: 1, lastPage: 3 })];
			const run = pages(answers, { returnAll: true, pageSize: 2, limit: 50 });
			await expect(run).rejects.toThrow('List Company Profiles asked for page 2 and got page 1: the API did not page, so the list stops after 2 profiles');
		});

		it('an empty page ends the list', async () => {
			const { out, requests } = await pages(
				[page(['a'], { currentPage: '1', lastPage: '9' }), page([], { currentPage: 2, lastPage: 9 })],
				{ returnAll: true, pageSize: 1 },
			);
			expect(out).toHaveLength(1);
			expect(requests.map((r) => r.qs)).toEqual([
				{ page: 1, limit: 1 },
				{ page: 2, limit: 1 },
			]);
		});
	});
});

describe('KYB parameters and the Country dropdown (loadOptions getCountries)', () => {
	it('loads the countries live from GET /KYB/countries, "All Countries" first', async () => {
		const options = await emulator().loadOptions(actionNode, 'getCountries', { resource: 'kyb', operation: 'search', name: '' });
		expect(options[0]).toEqual({ name: 'All Countries', value: '' });
		expect(options).toHaveLength(16);
		expect(options).toContainEqual({ name: 'Germany (DE)', value: 'DE' });
		expect(options).toContainEqual({ name: 'United Kingdom (GB)', value: 'GB' });
		const names = options.slice(1).map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(await emulator().count('GET /KYB/countries')).toBe(1);
	});

	it('reports a wrong API key as an error', async () => {
		await expect(emulator().loadOptions(actionNode, 'getCountries', { resource: 'kyb', operation: 'search' }, { apiKey: 'wrong' })).rejects.toThrow();
	});

	it('loads the countries into the Country dropdown and notes the packages', () => {
		const country = propertyOf('kyb', 'search', 'country');
		expect(country.type).toBe('options');
		expect(country.typeOptions).toEqual({ loadOptionsMethod: 'getCountries' });
		expect(propertyOf('kyb', 'getDetails', 'includeNotice').type).toBe('notice');
	});
});

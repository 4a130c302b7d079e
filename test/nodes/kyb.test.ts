import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { VerificationKyb } from '../../nodes/Kyb/VerificationKyb.node';
import { listCompanyProfiles } from '../../nodes/Kyb/operations/listCompanyProfiles';
import { search } from '../../nodes/Kyb/operations/search';
import type { ApiRequest, ApiResponse, ItemContext } from '../../nodes/shared/operation-types';
import { items, useEmulator } from '../helpers/emulator';
import { expectNodeContract } from '../helpers/node-contract';
import { expectValidationError } from '../helpers/validation';

const emulator = useEmulator();
const node = new VerificationKyb();

const ALL_FALSE = { officers: false, addresses: false, ownerships: false, transparency: false, documents: false, financials: false };

/** Runs a search through the node and returns its first company item's ids. */
async function searchIds(name: string): Promise<{ transactionId: string; companyId: string }> {
	const { items: out, error } = await emulator().run(node, { operation: 'search', name });
	expect(error).toBeUndefined();
	const { transactionId, companyId } = out[0].json as { transactionId: string; companyId: string };
	return { transactionId, companyId };
}

/** The run failed before anything was sent, naming the field and the rule (item 1). */
async function expectRejected(parameters: IDataObject, expected: { field: string; rule: string }, input?: IDataObject[]) {
	const result = await emulator().run(node, parameters as never, input ? { input: items(...input) } : {});
	await expectValidationError(emulator(), result, 0, `(${expected.field})`, expected.rule);
}

describe('KYB: Search Companies', () => {
	it('sends {name} and outputs one item per company, each with companyId and transactionId', async () => {
		const { items: out, error } = await emulator().run(node, { operation: 'search', name: 'Acme' });
		expect(error).toBeUndefined();

		const sent = await emulator().requests('POST /kyb/search');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual({ name: 'Acme' });

		expect(out.map((i) => i.json.companyId)).toEqual(['DE-HRB-123456', 'GB-CH-01234567']);
		const transactionId = out[0].json.transactionId;
		expect(transactionId).toEqual(expect.any(String));
		for (const item of out) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.transactionId).toBe(transactionId);
			expect(item.json.search).toEqual({ status: true, name: 'Acme', resultCount: 2 });
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

	it('upper-cases the country and sends it', async () => {
		const { items: out, error } = await emulator().run(node, { operation: 'search', name: 'Acme', country: 'gb' });
		expect(error).toBeUndefined();
		expect((await emulator().requests('POST /kyb/search'))[0].body).toEqual({ name: 'Acme', country: 'GB' });
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ companyId: 'GB-CH-01234567', search: { name: 'Acme', country: 'GB', resultCount: 1 } });
	});

	it('pairs the companies of several input items with their input', async () => {
		const { items: out, error } = await emulator().run(
			node,
			{ operation: 'search', name: '={{ $json.company }}' },
			{ input: items({ company: 'Acme' }, { company: 'Globex' }) },
		);
		expect(error).toBeUndefined();
		expect(out.map((i) => [i.json.companyId, i.pairedItem])).toEqual([
			['DE-HRB-123456', { item: 0 }],
			['GB-CH-01234567', { item: 0 }],
			['US-DE-5551234', { item: 1 }],
		]);
		expect((await emulator().requests('POST /kyb/search')).map((r) => r.body)).toEqual([{ name: 'Acme' }, { name: 'Globex' }]);
	});

	it('outputs nothing for a search without result by default', async () => {
		const { items: out, error } = await emulator().run(node, { operation: 'search', name: 'No Such Company' });
		expect(error).toBeUndefined();
		expect(out).toEqual([]);
		expect(await emulator().count('POST /kyb/search')).toBe(1);
	});

	it('outputs {found: false} paired with its input when "Output an Item When Nothing Is Found" is on', async () => {
		const { items: out, error } = await emulator().run(
			node,
			{ operation: 'search', name: '={{ $json.company }}', options: { outputWhenNotFound: true } },
			{ input: items({ company: 'No Such Company' }, { company: 'Globex' }) },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(2);
		expect(out[0]).toEqual({
			json: { found: false, search: { status: true, name: 'No Such Company', resultCount: 0 } },
			pairedItem: { item: 0 },
		});
		expect(out[1].json.companyId).toBe('US-DE-5551234');
		expect(out[1].pairedItem).toEqual({ item: 1 });
	});

	it('refuses a blank name (from an expression) before sending anything', async () => {
		await expectRejected(
			{ operation: 'search', name: '={{ $json.company }}' },
			{ field: 'name', rule: 'Company Name (name) is required' },
			[{ company: '' }],
		);
	});

	it('leaves an empty literal name to n8n, which refuses to start the node', async () => {
		const { error } = await emulator().run(node, { operation: 'search', name: '' });
		expect(error?.message).toContain('Parameter "Company Name" is required');
		expect((await emulator().stats()).total).toBe(0);
	});

	it.each([['DEU'], ['D'], ['1A'], ['d e']])('refuses country %p (not two letters)', async (country) => {
		await expectRejected(
			{ operation: 'search', name: 'Acme', country },
			{ field: 'country', rule: `Country Name or ID (country) must be a two-letter ISO 3166-1 country code such as DE, got "${country}"` },
		);
	});

	it('continues on fail: valid, invalid, valid keep order and pairing, the error item in the middle', async () => {
		const { items: out, error } = await emulator().run(
			node,
			{ operation: 'search', name: 'Acme Holdings', country: '={{ $json.country }}' },
			{ input: items({ country: 'DE' }, { country: 'Germany' }, { country: 'de' }), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(3);
		expect(out[0].json.companyId).toBe('DE-HRB-123456');
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[1].pairedItem).toEqual({ item: 1 });
		expect(out[1].json.error).toBe('Country Name or ID (country) must be a two-letter ISO 3166-1 country code such as DE, got "Germany" (item 2)');
		expect(out[2].json.companyId).toBe('DE-HRB-123456');
		expect(out[2].pairedItem).toEqual({ item: 2 });
		expect((await emulator().requests('POST /kyb/search')).map((r) => r.body)).toEqual([
			{ name: 'Acme Holdings', country: 'DE' },
			{ name: 'Acme Holdings', country: 'DE' },
		]);
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

		it('a list at the top level without data wrapper', () => {
			const out = toItems({ results: [company], transactionId: 'T4' });
			expect(out[0].json).toMatchObject({ companyId: 'C1', transactionId: 'T4', search: { transactionId: 'T4' } });
		});
	});
});

describe('KYB: Get Company Details', () => {
	it('sends transactionId, companyId, include as six booleans and timeoutMs; outputs the whole response', async () => {
		const ids = await searchIds('Acme Holdings');
		const { items: out, error } = await emulator().run(node, {
			operation: 'getDetails',
			transactionId: ids.transactionId,
			companyId: ids.companyId,
			include: ['officers', 'documents'],
			additionalFields: { timeoutMs: 5000 },
		});
		expect(error).toBeUndefined();
		const sent = await emulator().requests('POST /kyb/company/details');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual({
			transactionId: ids.transactionId,
			companyId: 'DE-HRB-123456',
			include: { ...ALL_FALSE, officers: true, documents: true },
			timeoutMs: 5000,
		});
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		const json = out[0].json as IDataObject & { data: IDataObject; metadata: IDataObject };
		expect(json.status).toBe(true);
		expect(json.data.company).toMatchObject({ legalName: 'Acme Holdings GmbH', country: 'DE' });
		expect(json.data.officers).toHaveLength(2);
		expect(json.data.documents).toHaveLength(2);
		expect(json.data.financials).toBeUndefined();
		expect(json.metadata).toMatchObject({ source: 'sandbox-registry', includedPackages: ['documents', 'officers'] });
	});

	it('sends all six packages false when none is chosen, and no timeoutMs', async () => {
		const ids = await searchIds('Globex');
		const { error } = await emulator().run(node, { operation: 'getDetails', ...ids });
		expect(error).toBeUndefined();
		expect((await emulator().requests('POST /kyb/company/details'))[0].body).toEqual({ ...ids, include: ALL_FALSE });
	});

	it('accepts include as comma-separated text from an expression', async () => {
		const ids = await searchIds('Globex');
		const { error } = await emulator().run(
			node,
			{ operation: 'getDetails', ...ids, include: '={{ $json.packages }}' },
			{ input: items({ packages: 'financials, ownerships' }) },
		);
		expect(error).toBeUndefined();
		expect((await emulator().requests('POST /kyb/company/details'))[0].body).toMatchObject({
			include: { ...ALL_FALSE, financials: true, ownerships: true },
		});
	});

	it('maps ids from the search output item by expression', async () => {
		const searched = await emulator().run(node, { operation: 'search', name: 'Acme' });
		const { items: out, error } = await emulator().run(
			node,
			{ operation: 'getDetails', transactionId: '={{ $json.transactionId }}', companyId: '={{ $json.companyId }}' },
			{ input: searched.items.map((i) => ({ json: i.json })) },
		);
		expect(error).toBeUndefined();
		expect(out.map((i) => [(i.json.data as IDataObject & { company: IDataObject }).company.legalName, i.pairedItem])).toEqual([
			['Acme Holdings GmbH', { item: 0 }],
			['ACME TRADING LIMITED', { item: 1 }],
		]);
	});

	it('turns the API 404 into a NodeApiError with the status and the API message', async () => {
		const { error } = await emulator().run(node, { operation: 'getDetails', transactionId: 'unknown', companyId: 'DE-HRB-123456' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('Get Company Details failed with HTTP 404: Company not found for this transaction');
		expect((error as NodeApiError).httpCode).toBe('404');
	});

	it.each([
		[{ transactionId: '={{ $json.blank }}', companyId: 'C1' }, 'transactionId', 'Transaction ID (transactionId) is required'],
		[{ transactionId: 'T1', companyId: '={{ $json.blank }}' }, 'companyId', 'Company ID (companyId) is required'],
		[
			{ transactionId: 'T1', companyId: 'C1', include: '={{ ["officers", "pictures"] }}' },
			'include',
			'Include (include) must be a selection of addresses, documents, financials, officers, ownerships, transparency',
		],
		[{ transactionId: 'T1', companyId: 'C1', additionalFields: { timeoutMs: 0 } }, 'timeoutMs', 'Timeout (Milliseconds) (timeoutMs) must be a whole number of at least 1, got 0'],
		[{ transactionId: 'T1', companyId: 'C1', additionalFields: { timeoutMs: 1.5 } }, 'timeoutMs', 'Timeout (Milliseconds) (timeoutMs) must be a whole number of at least 1, got 1.5'],
		[{ transactionId: 'T1', companyId: 'C1', additionalFields: { timeoutMs: -5 } }, 'timeoutMs', 'Timeout (Milliseconds) (timeoutMs) must be a whole number of at least 1, got -5'],
	])('refuses %j before sending anything (%s)', async (parameters, field, rule) => {
		await expectRejected({ operation: 'getDetails', ...parameters }, { field, rule }, [{ blank: '' }]);
	});
});

describe('KYB: List Company Profiles', () => {
	const route = 'GET /KYB/companyProfile';

	it('returns the first 50 by default in one request with page and limit', async () => {
		const { items: out, error } = await emulator().run(node, { operation: 'listCompanyProfiles' });
		expect(error).toBeUndefined();
		const sent = await emulator().requests(route);
		expect(sent.map((r) => r.query)).toEqual([{ page: '1', limit: '50' }]);
		expect(out).toHaveLength(23);
		expect(out[0].json).toMatchObject({ id: 'kyb-profile-001', searchText: 'Acme Holdings', requestId: 'kyb-req-001' });
		expect(out[0].json.profileList).toMatchObject({
			error: false,
			message: 'Company profiles fetched successfully',
			version: '1.0.0',
			data: { resolvedCount: expect.any(Number), requestStatus: 'COMPLETED', pagination: { currentPage: 1, lastPage: 1 } },
		});
		expect((out[0].json.profileList as IDataObject & { data: IDataObject }).data.kybRequestData).toBeUndefined();
		expect(out.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Return All pages until data.pagination says it was the last page', async () => {
		const { items: out, error } = await emulator().run(node, {
			operation: 'listCompanyProfiles',
			returnAll: true,
			options: { pageSize: 10 },
		});
		expect(error).toBeUndefined();
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([
			{ page: '1', limit: '10' },
			{ page: '2', limit: '10' },
			{ page: '3', limit: '10' },
		]);
		expect(out.map((i) => i.json.id)).toEqual(Array.from({ length: 23 }, (_, i) => `kyb-profile-${String(i + 1).padStart(3, '0')}`));
	});

	it('Return All with the default page size asks for 100 per page', async () => {
		const { items: out } = await emulator().run(node, { operation: 'listCompanyProfiles', returnAll: true });
		expect(out).toHaveLength(23);
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([{ page: '1', limit: '100' }]);
	});

	it('Limit stops across pages as soon as it is reached', async () => {
		const { items: out, error } = await emulator().run(node, {
			operation: 'listCompanyProfiles',
			returnAll: false,
			limit: 15,
			options: { pageSize: 10 },
		});
		expect(error).toBeUndefined();
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([
			{ page: '1', limit: '10' },
			{ page: '2', limit: '10' },
		]);
		expect(out.map((i) => i.json.id)).toEqual(Array.from({ length: 15 }, (_, i) => `kyb-profile-${String(i + 1).padStart(3, '0')}`));
	});

	it('a Limit below the page size asks for only that many', async () => {
		const { items: out } = await emulator().run(node, { operation: 'listCompanyProfiles', limit: 5 });
		expect(out.map((i) => i.json.id)).toEqual(['kyb-profile-001', 'kyb-profile-002', 'kyb-profile-003', 'kyb-profile-004', 'kyb-profile-005']);
		expect((await emulator().requests(route)).map((r) => r.query)).toEqual([{ page: '1', limit: '5' }]);
	});

	it.each([
		[{ limit: 0 }, 'limit', 'Limit (limit) must be a whole number of at least 1, got 0'],
		[{ limit: 2.5 }, 'limit', 'Limit (limit) must be a whole number of at least 1, got 2.5'],
		[{ options: { pageSize: 0 } }, 'pageSize', 'Page Size (pageSize) must be a whole number of at least 1, got 0'],
	])('refuses %j before sending anything', async (parameters, field, rule) => {
		await expectRejected({ operation: 'listCompanyProfiles', ...parameters }, { field, rule });
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

describe('KYB: List Countries', () => {
	it('outputs one item per country with the response envelope beside it', async () => {
		const { items: out, error } = await emulator().run(node, { operation: 'listCountries' });
		expect(error).toBeUndefined();
		const sent = await emulator().requests('GET /KYB/countries');
		expect(sent).toHaveLength(1);
		expect(sent[0].query).toEqual({});
		expect(sent[0].body).toBeNull();
		expect(out).toHaveLength(15);
		expect(out[0]).toEqual({
			json: {
				countryName: 'Austria',
				countryCode: 'AT',
				states: ['Vienna', 'Tyrol', 'Styria'],
				countryList: { error: false, message: 'Countries fetched successfully', version: '1.0.0' },
			},
			pairedItem: { item: 0 },
		});
	});
});

describe('KYB: Country dropdown (loadOptions getCountries)', () => {
	it('loads the countries live from GET /KYB/countries, "All Countries" first', async () => {
		const options = await emulator().loadOptions(node, 'getCountries', { operation: 'search', name: '' });
		expect(options[0]).toEqual({ name: 'All Countries', value: '' });
		expect(options).toHaveLength(16);
		expect(options).toContainEqual({ name: 'Germany (DE)', value: 'DE' });
		expect(options).toContainEqual({ name: 'United Kingdom (GB)', value: 'GB' });
		const names = options.slice(1).map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(await emulator().count('GET /KYB/countries')).toBe(1);
	});

	it('the search node uses the dropdown and a value chosen from it is sent', async () => {
		const options = await emulator().loadOptions(node, 'getCountries', { operation: 'search' });
		const sweden = options.find((o) => o.value === 'SE')!;
		const { items: out } = await emulator().run(node, { operation: 'search', name: 'Nordic', country: sweden.value });
		expect(out.map((i) => i.json.companyId)).toEqual(['SE-BV-5566778899']);
	});

	it('reports a wrong API key as an error', async () => {
		const { runLoadOptions } = await import('../helpers/n8n');
		const { VerificationServicesApi } = await import('../../credentials/VerificationServicesApi.credentials');
		await expect(
			runLoadOptions({
				node,
				method: 'getCountries',
				parameters: { operation: 'search' },
				credentials: { verificationServicesApi: { ...emulator().credentials(), apiKey: 'wrong' } as never },
				credentialTypes: [new VerificationServicesApi()],
			}),
		).rejects.toThrow();
	});
});

describe('KYB node description', () => {
	it('has the contract names, the icon and the operations', () => {
		const d = node.description;
		expectNodeContract(d, {
			name: 'verificationKyb',
			displayName: 'KYB Company Data',
			icon: 'kyb',
			operations: ['search', 'getDetails', 'listCompanyProfiles', 'listCountries'],
		});
		const country = d.properties.find((p) => p.name === 'country')!;
		expect(country.type).toBe('options');
		expect(country.typeOptions).toEqual({ loadOptionsMethod: 'getCountries' });
		expect(d.properties.find((p) => p.name === 'includeNotice')!.type).toBe('notice');
	});
});

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { boolean, check, text } from '../../../shared/fields/rules';
import { pick } from '../../../shared/responses/pick';
import { elementJson, findList } from '../list-helpers';

/** Where the vendor's own client looks for the companies found. */
export const SEARCH_LIST_KEYS = ['companies', 'results', 'matches', 'items'];

/** The search's transactionId when the API gives it once for the whole search. */
function searchTransactionId(body: IDataObject): unknown {
	return valueAt(body, 'transactionId') ?? valueAt(body, 'metadata.transactionId');
}

export const search: OperationDefinition = {
	value: 'search',
	name: 'Search Companies',
	action: 'Search companies',
	description:
		'Find companies by name, optionally by registration number; each company found becomes one item with its companyId and transactionId',
	method: 'POST',
	path: '/kyb/search',
	repeatable: true,
	// The company and the ids Get Company Details needs; the echo of the search is left out, but not
	// `found: false` (Output an Item When Nothing Is Found), which users branch on.
	simplify: [
		'found',
		'companyId',
		'transactionId',
		'name',
		'legalName',
		'registrationNumber',
		'country',
		'status',
		'legalForm',
		'score',
	],
	toolDescription:
		'Search business registries for companies by name. Supply name (the company name or part of it) and optionally country (two-letter ISO code such as DE) and registrationNumber (the number in the business register, when known). Returns one result per company with its companyId and transactionId, both needed by Get Company Details. Read-only.',
	fields: [
		{
			property: {
				displayName: 'Company Name',
				name: 'name',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Acme Holdings',
				description: 'Name of the company, or part of it',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Country Name or ID',
				name: 'country',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCountries' },
				default: '',
				description:
					'Optional. Only companies registered in this country. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			rule: text({
				normalize: (value) => value.trim().toUpperCase(),
				checks: [check.pattern(/^[A-Z]{2}$/, 'a two-letter ISO 3166-1 country code such as DE')],
			}),
		},
		{
			property: {
				displayName: 'Registration Number',
				name: 'registrationNumber',
				type: 'string',
				default: '',
				placeholder: 'HRB 123456',
				description:
					'Optional. Only the company with this number in its business register, searched together with the name.',
			},
			rule: text({ normalize: (value) => value.trim() }),
		},
	],
	options: [
		{
			property: {
				displayName: 'Output an Item When Nothing Is Found',
				name: 'outputWhenNotFound',
				type: 'boolean',
				default: false,
				description:
					'Whether a search that finds no company still outputs one item for its input: {found: false, search: {...}}, without companyId, paired with the input item. Off (default): such an input produces no item.',
			},
			rule: boolean(),
		},
	],
	toItems: (response, { values }): INodeExecutionData[] => {
		const body = responseJson(response.body);
		const found = findList(body, SEARCH_LIST_KEYS) ?? { list: [], rest: body };
		const transactionId = searchTransactionId(body);
		const searchInfo: IDataObject = {
			...found.rest,
			name: values.name as string,
			...pick(values, ['country', 'registrationNumber']),
			resultCount: found.list.length,
		};
		if (found.list.length === 0) {
			if (values.outputWhenNotFound !== true) return [];
			return [
				{
					json: {
						found: false,
						...(transactionId !== undefined ? { transactionId: transactionId as string } : {}),
						search: searchInfo,
					},
				},
			];
		}
		return found.list.map((element) => {
			const company = elementJson(element);
			if (company.companyId === undefined && company.id !== undefined)
				company.companyId = company.id;
			if (company.transactionId === undefined && transactionId !== undefined)
				company.transactionId = transactionId as string;
			return { json: { ...company, search: searchInfo } };
		});
	},
};

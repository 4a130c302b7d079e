import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { isObject, responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { flagSet, integer, text } from '../../../shared/fields/rules';
import { firstOf, pick } from '../../../shared/responses/pick';
import { linkTokensOf } from '../link-tokens';

/** What an AI agent's model reads of a company record: who it is, who runs and owns it, and the document tokens. */
export function companyForModel(json: IDataObject): IDataObject {
	const found = valueAt(json, 'company');
	const company = isObject(found) ? found : {};
	// A package beside the company (newer generation) or inside it (older).
	const packageOf = (key: string) => valueAt(json, key) ?? company[key];
	const list = (key: string, keys: string[]) => {
		const { listed, more } = firstOf(packageOf(key), 10, (entry) => pick(entry, keys));
		return listed.length ? { [key]: listed, ...(more ? { [`${key}More`]: more } : {}) } : {};
	};
	const address = isObject(company.registeredAddress)
		? company.registeredAddress.singleLine
		: undefined;
	const addresses = packageOf('addresses');
	const financials = packageOf('financials');
	const latest =
		Array.isArray(financials) && financials.length
			? (financials[financials.length - 1] as IDataObject)
			: undefined;
	return {
		company: {
			...pick(company, [
				'legalName',
				'tradingNames',
				'status',
				'country',
				'incorporationDate',
				'identifiers',
				'website',
			]),
			...(address ? { registeredAddress: address } : {}),
		},
		...list('officers', ['name', 'role', 'dob', 'nationality']),
		...list('ownerships', ['name', 'type', 'share', 'country']),
		...list('transparency', ['type', 'name', 'ownershipPercentage', 'country', 'linkToken']),
		...list('documents', ['documentId', 'name', 'type', 'date', 'linkToken']),
		...(Array.isArray(addresses) ? { addressCount: addresses.length } : {}),
		...(latest ? { latestFinancials: latest } : {}),
		...(isObject(json.metadata)
			? pick(json.metadata, ['transactionId', 'includedPackages', 'confidence', 'source'])
			: {}),
	};
}

export const getDetails: OperationDefinition = {
	value: 'getDetails',
	name: 'Get Company Details',
	action: 'Get company details',
	description:
		'Get the registry record of a company found by Search Companies, with optional data packages',
	method: 'POST',
	path: '/kyb/company/details',
	repeatable: true,
	toolDescription:
		'Get the registry record of one company found by Search Companies: legal name, status, registration, and the data packages this node is set to include (officers, owners, beneficial owners, addresses, documents, financials). Supply companyId, and transactionId from the same search result when you have it. Each data package is priced separately by the provider: call it once per company you need, not for every search result.',
	toolSummary: companyForModel,
	// The company, its officers (older generation inside the company) and the links to its files.
	simplify: [
		'status',
		'requestId',
		'companyId',
		'metadata.transactionId',
		'data.company.legalName',
		'data.company.status',
		'data.company.country',
		'data.company.registeredAddress.singleLine',
		'data.company.identifiers',
		'data.company.officers',
		'data.officers',
		'linkTokens',
	],
	// A record is only a record with its company, whatever the status says ("success" or true).
	expects: { allOf: ['company'] },
	fields: [
		{
			property: {
				displayName: 'Transaction ID',
				name: 'transactionId',
				type: 'string',
				default: '',
				placeholder: '5f0c6a1e-3b1d-4c7a-9a52-0d6f1f1b2c3d',
				description:
					'The transactionId of the search that found the company (Search Companies output). Optional: sent when set; the API also finds a company by its companyId alone.',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Company ID',
				name: 'companyId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'DE-HRB-123456',
				description: 'The companyId from the same search result (Search Companies output)',
			},
			rule: text(),
		},
		{
			property: {
				displayName:
					'Each data package chosen in Include is priced separately by the provider. Leave Include empty to get the basic company record only.',
				name: 'includeNotice',
				type: 'notice',
				default: '',
			},
		},
		{
			property: {
				displayName: 'Include',
				name: 'include',
				type: 'multiOptions',
				// Sent as an object with one boolean per option, in this order.
				options: [
					{
						name: 'Addresses',
						value: 'addresses',
						description: 'All known addresses of the company',
					},
					{
						name: 'Documents',
						value: 'documents',
						description: 'Register documents (each with a linkToken to retrieve it)',
					},
					{
						name: 'Financials',
						value: 'financials',
						description: 'Financial statements and key figures',
					},
					{
						name: 'Officers',
						value: 'officers',
						description: 'Directors, managers and other officers',
					},
					{ name: 'Ownerships', value: 'ownerships', description: 'Shareholders and their shares' },
					{
						name: 'Transparency',
						value: 'transparency',
						description: 'Beneficial owners from the transparency register',
					},
				],
				default: [],
				description:
					'Data packages to add to the company record; each one is priced separately. Only the chosen ones are sent (include: {officers: true, ...}); none: no include.',
			},
			rule: flagSet,
		},
		{
			property: {
				displayName: 'Timeout (Milliseconds)',
				name: 'timeoutMs',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30000,
				description: 'How long the provider may take to collect the data, in milliseconds',
			},
			rule: integer,
			additional: true,
		},
	],
	// Beside the record: every linkToken it carries, for Retrieve Document (Split Out on linkTokens).
	toItems: (response) => [
		{ json: { ...responseJson(response.body), linkTokens: linkTokensOf(response.body) } },
	],
};

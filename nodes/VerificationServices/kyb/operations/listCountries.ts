import type { INodeExecutionData } from 'n8n-workflow';

import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { elementJson, findList } from '../list-helpers';

export const listCountries: OperationDefinition = {
	value: 'listCountries',
	name: 'List Countries',
	action: 'List countries',
	description: 'List the countries whose registries KYB can search, one item per country',
	method: 'GET',
	path: '/KYB/countries',
	repeatable: true,
	toolDescription:
		'List the countries whose business registries KYB can search, with their two-letter codes for Search Companies. Needs no input. Read-only.',
	fields: [],
	toItems: (response): INodeExecutionData[] => {
		const body = responseJson(response.body);
		const found = findList(body, ['countries']) ?? { list: [], rest: body };
		return found.list.map((element) => ({
			json: { ...elementJson(element), countryList: found.rest },
		}));
	},
};

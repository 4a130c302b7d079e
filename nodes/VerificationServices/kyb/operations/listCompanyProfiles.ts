import { type IDataObject, type INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { isObject, responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { boolean, integer } from '../../../shared/fields/rules';
import { elementJson, findList } from '../list-helpers';

/** Profiles asked for per request unless Options > Page Size says otherwise (the API's maximum is undocumented). */
export const DEFAULT_PAGE_SIZE = 100;
/** Stops a run-away loop should the API keep announcing further pages. */
const MAX_PAGES = 10_000;

export const listCompanyProfiles: OperationDefinition = {
	value: 'listCompanyProfiles',
	name: 'List Company Profiles',
	action: 'List company profiles',
	description: 'List the company profiles of your account, one item per profile',
	method: 'GET',
	path: '/KYB/companyProfile',
	repeatable: true,
	// Each profile's identity and state; the list's own envelope (profileList) is left out.
	simplify: [
		'id',
		'requestId',
		'name',
		'registrationNumber',
		'registrationDate',
		'countryName',
		'type',
		'status',
		'riskLevel',
		'verificationStatus',
	],
	toolDescription:
		'List the company profiles (earlier KYB requests) of this account. Needs no input. Read-only.',
	fields: [
		{
			property: {
				displayName: 'Return All',
				name: 'returnAll',
				type: 'boolean',
				default: false,
				description: 'Whether to return all results or only up to a given limit',
			},
			rule: boolean(),
			location: 'none',
		},
		{
			property: {
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { show: { returnAll: [false] } },
			},
			rule: integer,
			location: 'none',
		},
	],
	options: [
		{
			property: {
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_PAGE_SIZE,
				description:
					'How many profiles each request asks for (query parameter limit). Lower it if the API refuses the page size or answers too slowly.',
			},
			rule: integer,
		},
	],
	/**
	 * Pages with `page` and `limit` until the limit is reached or `data.pagination` says it was the
	 * last page. A page that is not the one asked for (an API that ignores `page`) is refused before
	 * any of its profiles is output, so no profile is output twice.
	 */
	run: async ({ ctx, itemIndex, values, send }, request): Promise<INodeExecutionData[]> => {
		const wanted = values.returnAll === true ? Infinity : (values.limit as number);
		const pageSize = Math.min(wanted, values.pageSize as number);
		const items: INodeExecutionData[] = [];
		for (let page = 1; page <= MAX_PAGES; page++) {
			const response = await send({ ...request, qs: { ...request.qs, page, limit: pageSize } });
			const body = responseJson(response.body);
			const data = isObject(body.data) ? body.data : body;
			const pagination: IDataObject = isObject(data.pagination) ? data.pagination : {};
			const current = Number(pagination.currentPage ?? Number.NaN);
			const last = Number(pagination.lastPage ?? Number.NaN);
			if (page > 1 && current !== page) {
				throw new NodeOperationError(
					ctx.getNode(),
					`List Company Profiles asked for page ${page} and got page ${String(pagination.currentPage)}: the API did not page, so the list stops after ${items.length} profiles`,
					{
						itemIndex,
						description: `Nothing of that page was output, so no profile is output twice. Turn Return All off and set Limit to at most ${pageSize} (Options > Page Size), or try again later.`,
					},
				);
			}
			const found = findList(body, ['kybRequestData']) ?? { list: [], rest: body };
			for (const element of found.list) {
				if (items.length >= wanted) break;
				items.push({ json: { ...elementJson(element), profileList: found.rest } });
			}
			if (items.length >= wanted || found.list.length === 0) break;
			// Without pagination, or on its last page, another request would only repeat data.
			if (!Number.isFinite(last) || current !== page || current >= last) break;
		}
		return items;
	},
};

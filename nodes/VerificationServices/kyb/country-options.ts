import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isObject, responseJson } from '../../shared/responses/json';
import { requestOnce } from '../../shared/transport/transport';
import { findList } from './list-helpers';

/** The countries KYB can search, live from GET /KYB/countries, for the Country dropdown. */
export async function getCountries(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await requestOnce(
		this,
		{ method: 'GET', path: '/KYB/countries' },
		{ operation: 'List Countries', repeatable: true },
	);
	const list = findList(responseJson(response.body), ['countries'])?.list ?? [];
	const countries = list
		.filter(isObject)
		.map((c) => ({
			code: String(c.countryCode ?? '')
				.trim()
				.toUpperCase(),
			name: String(c.countryName ?? ''),
		}))
		.filter((c) => /^[A-Z]{2}$/.test(c.code))
		.map((c) => ({ name: c.name ? `${c.name} (${c.code})` : c.code, value: c.code }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [{ name: 'All Countries', value: '' }, ...countries];
}

import {
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { isObject } from '../shared/responses/json';
import { responseJson } from '../shared/responses/response-json';
import { operationProperties, operationSubtitle } from '../shared/operation/node-properties';
import { runOperations } from '../shared/operation/run-operations';
import { requestOnce } from '../shared/transport/transport';
import { findList } from './list-helpers';
import { kybOperations } from './operations';

export class VerificationKyb implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'KYB Company Data',
		name: 'verificationKyb',
		icon: { light: 'file:../../icons/kyb.svg', dark: 'file:../../icons/kyb.dark.svg' },
		group: ['transform'],
		// 2: Simplify on by default for Search Companies, Get Company Details and List Company Profiles (version 1, as saved workflows hold it, keeps the whole answer).
		version: [1, 2],
		subtitle: operationSubtitle(kybOperations),
		description:
			'Search companies in business registries and get their details, officers, owners and documents',
		defaults: { name: 'KYB Company Data' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'verificationServicesApi', required: true }],
		properties: operationProperties(kybOperations),
	};

	methods = {
		loadOptions: {
			/** The countries KYB can search, live from GET /KYB/countries, for the Country dropdown. */
			async getCountries(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
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
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, kybOperations);
	}
}

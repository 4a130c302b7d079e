import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { getDetails } from './getDetails';
import { listCompanyProfiles } from './listCompanyProfiles';
import { listCountries } from './listCountries';
import { retrieveDocument } from './retrieveDocument';
import { search } from './search';

export const kybResource: ResourceDefinition = {
	value: 'kyb',
	name: 'KYB Company Data',
	description:
		'Search companies in business registries and get their details, officers, owners and documents',
	operations: [search, getDetails, retrieveDocument, listCompanyProfiles, listCountries],
};

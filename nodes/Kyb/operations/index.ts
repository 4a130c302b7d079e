import type { OperationDefinition } from '../../shared/operation/operation-types';
import { getDetails } from './getDetails';
import { listCompanyProfiles } from './listCompanyProfiles';
import { listCountries } from './listCountries';
import { retrieveDocument } from './retrieveDocument';
import { search } from './search';

export const kybOperations: OperationDefinition[] = [
	search,
	getDetails,
	retrieveDocument,
	listCompanyProfiles,
	listCountries,
];

import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { checkIndividual } from './checkIndividual';
import { registerIndividual } from './registerIndividual';
import { removeSearchProfile } from './removeSearchProfile';

export const amlResource: ResourceDefinition = {
	value: 'aml',
	name: 'AML Screening',
	description:
		'Screen people against sanction, PEP and criminal lists, and manage ongoing monitoring',
	operations: [checkIndividual, registerIndividual, removeSearchProfile],
};

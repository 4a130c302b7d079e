import type { OperationDefinition } from '../../shared/operation/operation-types';
import { checkIndividual } from './checkIndividual';
import { registerIndividual } from './registerIndividual';
import { removeSearchProfile } from './removeSearchProfile';

export const amlOperations: OperationDefinition[] = [
	checkIndividual,
	registerIndividual,
	removeSearchProfile,
];

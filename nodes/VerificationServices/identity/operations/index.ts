import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { verify } from './verify';

export const identityResource: ResourceDefinition = {
	value: 'identity',
	name: 'Identity Verification',
	description:
		"Check a person's name, date of birth and address against official and commercial data sources",
	operations: [verify],
};

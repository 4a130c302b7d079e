import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { verify } from './verify';

export const addressResource: ResourceDefinition = {
	value: 'address',
	name: 'Address Verification',
	description:
		'Check that a person lives at an address, with the match quality and the corrected address',
	operations: [verify],
};

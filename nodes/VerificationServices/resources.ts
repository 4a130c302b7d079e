import type { ResourceDefinition } from '../shared/operation/operation-types';
import { addressResource } from './address/operations';
import { amlResource } from './aml/operations';
import { documentResource } from './document/operations';
import { identityResource } from './identity/operations';
import { kybResource } from './kyb/operations';
import { paymentsResource } from './payments/operations';
import { phoneResource } from './phone/operations';
import { qesResource } from './qes/operations';

/** The API groups of the action node, in the order the Resource picker lists them. */
export const resources: ResourceDefinition[] = [
	amlResource,
	kybResource,
	paymentsResource,
	documentResource,
	phoneResource,
	qesResource,
	addressResource,
	identityResource,
];

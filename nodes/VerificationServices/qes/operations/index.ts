import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { configureWebhook } from './configureWebhook';
import { createSessionLink } from './createSessionLink';
import { getVerification } from './getVerification';

export const qesResource: ResourceDefinition = {
	value: 'qes',
	name: 'QES Onboarding',
	description:
		'Start qualified electronic signature (QES) onboarding sessions, read their result, download the signed documents and configure the status webhook',
	operations: [getVerification, configureWebhook, createSessionLink],
};

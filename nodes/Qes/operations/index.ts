import type { OperationDefinition } from '../../shared/operation/operation-types';
import { configureWebhook } from './configureWebhook';
import { createSessionLink } from './createSessionLink';
import { getVerification } from './getVerification';

export const qesOperations: OperationDefinition[] = [
	getVerification,
	configureWebhook,
	createSessionLink,
];

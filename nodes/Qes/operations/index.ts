import type { OperationDefinition } from '../../shared/operation-types';
import { configureWebhook } from './configureWebhook';
import { getVerification } from './getVerification';

export const qesOperations: OperationDefinition[] = [getVerification, configureWebhook];

import type { OperationDefinition } from '../../shared/operation/operation-types';
import { verify } from './verify';

export const identityOperations: OperationDefinition[] = [verify];

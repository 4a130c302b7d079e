import type { OperationDefinition } from '../../shared/operation-types';
import { verify } from './verify';

export const addressOperations: OperationDefinition[] = [verify];

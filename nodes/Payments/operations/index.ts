import type { OperationDefinition } from '../../shared/operation-types';
import { challengeDeposit } from './challengeDeposit';

export const paymentsOperations: OperationDefinition[] = [challengeDeposit];

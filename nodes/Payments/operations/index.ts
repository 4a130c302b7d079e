import type { OperationDefinition } from '../../shared/operation/operation-types';
import { challengeDeposit } from './challengeDeposit';
import { getPaymentStatus } from './getPaymentStatus';
import { initiatePayment } from './initiatePayment';

export const paymentsOperations: OperationDefinition[] = [
	challengeDeposit,
	initiatePayment,
	getPaymentStatus,
];

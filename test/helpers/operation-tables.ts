import { addressOperations } from '../../nodes/Address/operations';
import { amlOperations } from '../../nodes/Aml/operations';
import { documentOperations } from '../../nodes/Document/operations';
import { identityOperations } from '../../nodes/Identity/operations';
import { kybOperations } from '../../nodes/Kyb/operations';
import { paymentsOperations } from '../../nodes/Payments/operations';
import { phoneOperations } from '../../nodes/Phone/operations';
import { qesOperations } from '../../nodes/Qes/operations';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';

/** Every action node's operation table, by the node's name (its description.name). */
export const OPERATION_TABLES: Record<string, OperationDefinition[]> = {
	verificationAddress: addressOperations,
	verificationAml: amlOperations,
	verificationDocument: documentOperations,
	verificationIdentity: identityOperations,
	verificationKyb: kybOperations,
	verificationPayments: paymentsOperations,
	verificationPhone: phoneOperations,
	verificationQes: qesOperations,
};

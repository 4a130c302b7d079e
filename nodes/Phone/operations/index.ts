import type { OperationDefinition } from '../../shared/operation/operation-types';
import { checkOtp } from './checkOtp';
import { getFullIntelligence } from './getFullIntelligence';
import { getPhoneId } from './getPhoneId';
import { getPhoneStatus } from './getPhoneStatus';
import { getRiskScore } from './getRiskScore';
import { sendOtp } from './sendOtp';

export const phoneOperations: OperationDefinition[] = [
	sendOtp,
	checkOtp,
	getPhoneStatus,
	getPhoneId,
	getRiskScore,
	getFullIntelligence,
];

import type { OperationDefinition } from '../../shared/operation-types';
import { checkOtp } from './checkOtp';
import { sendOtp } from './sendOtp';

export const phoneOperations: OperationDefinition[] = [sendOtp, checkOtp];

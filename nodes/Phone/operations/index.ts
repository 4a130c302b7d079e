import type { OperationDefinition } from '../../shared/operation-types';
import { sendOtp } from './sendOtp';

export const phoneOperations: OperationDefinition[] = [sendOtp];

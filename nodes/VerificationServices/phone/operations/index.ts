import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { checkOtp } from './checkOtp';
import { getFullIntelligence } from './getFullIntelligence';
import { getPhoneId } from './getPhoneId';
import { getPhoneStatus } from './getPhoneStatus';
import { getRiskScore } from './getRiskScore';
import { sendOtp } from './sendOtp';

export const phoneResource: ResourceDefinition = {
	value: 'phone',
	name: 'Phone Verification',
	description:
		'Send one-time passwords by SMS or e-mail and check the code the person typed, and look phone numbers up: live status, identity data with add-ons and fraud risk',
	operations: [sendOtp, checkOtp, getPhoneStatus, getPhoneId, getRiskScore, getFullIntelligence],
};

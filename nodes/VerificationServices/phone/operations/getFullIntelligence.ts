import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { cleanPhoneNumber } from '../../../shared/fields/phone-number';
import { check, text } from '../../../shared/fields/rules';
import { riskForModel } from './getRiskScore';
import { externalId, phoneNumberDigits } from '../lookup-fields';
import { lookupAnswer, lookupStatus } from '../phone-lookup';
import { riskAssessment } from '../risk-assessment';

export const getFullIntelligence: OperationDefinition = {
	value: 'getFullIntelligence',
	name: 'Get Full Intelligence',
	action: 'Get everything known about a phone number',
	description:
		'One lookup for the fraud risk (score, recommendation, reason codes), the carrier, type, location and block status of a number. Each lookup is billed by the provider.',
	method: 'POST',
	path: '/phone-service/fullPhoneIntelligence',
	repeatable: true,
	toolDescription:
		'Get everything known about a phone number (phoneNumber: digits with the country code, for example 436501234567): riskAssessment.recommendation (allow, flag or block) with score and level, reason codes, carrier, phone type, location and whether it is blocklisted. Read-only, but each call is billed by the provider and bundles several lookups: call it once per number, and prefer Get Risk Score when only the risk is needed.',
	expects: lookupAnswer,
	fields: [
		phoneNumberDigits(8, 20),
		// The provider's client lets only these through for this lookup.
		{
			...externalId,
			rule: text({
				normalize: (value) => value.trim(),
				checks: [
					check.pattern(
						/^[A-Za-z0-9._-]{1,80}$/,
						'at most 80 letters, digits, dots, underscores and hyphens',
					),
				],
			}),
		},
	],
	options: [cleanPhoneNumber],
	simplify: true,
	toolSummary: riskForModel,
	toItems: (response, item) => [
		{
			json: {
				...responseJson(response.body),
				lookup: lookupStatus(getFullIntelligence, response, item),
				riskAssessment: riskAssessment(response.body),
			},
		},
	],
};

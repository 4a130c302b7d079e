import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { cleanPhoneNumber } from '../../../shared/fields/phone-number';
import { text } from '../../../shared/fields/rules';
import {
	accountLifecycleEvent,
	emailAddress,
	externalId,
	internationalPhoneNumber,
	originatingIpv4,
} from '../lookup-fields';
import { lookupAnswer, lookupStatus } from '../phone-lookup';
import { riskAssessment } from '../risk-assessment';

/** What a model needs of a risk answer: the verdict, the reason codes and what the number is. */
export function riskForModel(json: IDataObject): IDataObject {
	return {
		lookup: json.lookup,
		riskAssessment: json.riskAssessment,
		reasonCodes: valueAt(json, 'riskInsights') ?? null,
		phoneType: valueAt(json, 'phoneType.description') ?? null,
		carrier: valueAt(json, 'carrier.name') ?? null,
		country: valueAt(json, 'location.country.iso2') ?? null,
	};
}

export const getRiskScore: OperationDefinition = {
	value: 'getRiskScore',
	name: 'Get Risk Score',
	action: 'Get the fraud risk of a phone number',
	description:
		'Score the fraud risk of a number (0 to 1000) with a recommendation to allow, flag or block and the reason codes behind it. Each lookup is billed by the provider.',
	method: 'POST',
	path: '/phone-service/phoneRiskScore',
	repeatable: true,
	toolDescription:
		'Score the fraud risk of a phone number (phoneNumber with the country code, for example +436501234567). Returns riskAssessment.recommendation (allow, flag or block), the score (0 to 1000, higher is riskier), the level and numeric reason codes. Optional: originatingIp (IPv4), emailAddress. Read-only, but each call is billed by the provider: call it once per number.',
	expects: lookupAnswer,
	fields: [
		internationalPhoneNumber,
		accountLifecycleEvent,
		externalId,
		originatingIpv4,
		{
			property: {
				displayName: 'Device ID',
				name: 'deviceId',
				type: 'string',
				default: '',
				description: "Your ID of the person's device; case-sensitive",
			},
			rule: text(),
			additional: true,
		},
		{
			property: {
				displayName: 'Account ID',
				name: 'accountId',
				type: 'string',
				default: '',
				description: "Your ID of the person's account; case-sensitive",
			},
			rule: text(),
			additional: true,
		},
		emailAddress,
	],
	options: [cleanPhoneNumber],
	simplify: true,
	toolSummary: riskForModel,
	toItems: (response, item) => [
		{
			json: {
				...responseJson(response.body),
				lookup: lookupStatus(getRiskScore, response, item),
				riskAssessment: riskAssessment(response.body),
			},
		},
	],
};

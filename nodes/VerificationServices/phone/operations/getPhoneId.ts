import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { cleanPhoneNumber } from '../../../shared/fields/phone-number';
import {
	accountLifecycleEvent,
	externalId,
	originatingIp,
	phoneNumberDigits,
} from '../lookup-fields';
import { lookupAnswer, lookupStatus } from '../phone-lookup';
import { addonFields, addonResults } from '../phoneid-addons';

export const getPhoneId: OperationDefinition = {
	value: 'getPhoneId',
	name: 'Get Phone ID',
	action: 'Get the identity data of a phone number',
	description:
		'Look up who and what is behind a number: carrier, type, location and block status, plus the add-ons you choose (SIM swap, porting, contact match, age, ...). Each lookup and each add-on is billed by the provider.',
	method: 'POST',
	path: '/phone-service/phoneid',
	repeatable: true,
	toolDescription:
		'Look up the identity data of a phone number (phoneNumber: digits with the country code, for example 436501234567): carrier, phone type, location, block status, and the add-ons configured on this tool, each with addonResults.<addon>.result (completed, noData or notEnabled). Read-only, but each call and each add-on is billed by the provider: call it once per number.',
	expects: lookupAnswer,
	fields: [
		phoneNumberDigits(6, 20),
		accountLifecycleEvent,
		...addonFields,
		externalId,
		originatingIp,
	],
	options: [cleanPhoneNumber],
	simplify: true,
	toolSummary: (json) => ({
		lookup: json.lookup,
		addonResults: json.addonResults,
		phoneType: valueAt(json, 'phoneType.description') ?? null,
		carrier: valueAt(json, 'carrier.name') ?? null,
		country: valueAt(json, 'location.country.iso2') ?? null,
		blocked: valueAt(json, 'blocklisting.blocked') ?? null,
	}),
	toItems: (response, item) => [
		{
			json: {
				...responseJson(response.body),
				lookup: lookupStatus(getPhoneId, response, item),
				addonResults: addonResults(response.body, item),
			},
		},
	],
};

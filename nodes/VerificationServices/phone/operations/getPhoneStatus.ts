import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { cleanPhoneNumber } from '../../../shared/fields/phone-number';
import { internationalPhoneNumber } from '../lookup-fields';
import { lookupAnswer, lookupStatus } from '../phone-lookup';

/** `lineStatus`, added beside the response: the live state of the line, read in either casing. */
function lineStatus(body: unknown): IDataObject {
	const live = (name: string) => valueAt(body, `live.${name}`) ?? null;
	return {
		subscriberStatus: live('subscriberStatus'),
		deviceStatus: live('deviceStatus'),
		roaming: live('roaming'),
		roamingCountry: live('roamingCountry'),
	};
}

export const getPhoneStatus: OperationDefinition = {
	value: 'getPhoneStatus',
	name: 'Get Phone Status',
	action: 'Get the live status of a phone number',
	description:
		'Look up whether a number is active and reachable, and whether it roams, with its carrier, type and location. Each lookup is billed by the provider.',
	method: 'POST',
	path: '/phone-service/phoneStatus',
	repeatable: true,
	toolDescription:
		'Look up the live status of a phone number (phoneNumber with the country code, for example +436501234567): lineStatus.subscriberStatus (e.g. ACTIVE), lineStatus.deviceStatus (e.g. REACHABLE), roaming, plus carrier, phone type and location. Read-only, but each call is billed by the provider: call it once per number.',
	expects: lookupAnswer,
	fields: [internationalPhoneNumber],
	options: [cleanPhoneNumber],
	simplify: true,
	toolSummary: (json) => ({
		lookup: json.lookup,
		lineStatus: json.lineStatus,
		phoneType: valueAt(json, 'phoneType.description') ?? null,
		carrier: valueAt(json, 'carrier.name') ?? null,
		country: valueAt(json, 'location.country.iso2') ?? null,
		blocked: valueAt(json, 'blocklisting.blocked') ?? null,
	}),
	toItems: (response, item) => [
		{
			json: {
				...responseJson(response.body),
				lookup: lookupStatus(getPhoneStatus, response, item),
				lineStatus: lineStatus(response.body),
			},
		},
	],
};

import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { birthDate, countryCode, postalCode } from '../../../shared/fields/person-rules';
import { internationalNumber } from '../../../shared/fields/phone-number';
import { boolean, text } from '../../../shared/fields/rules';
import { firstOf, pick } from '../../../shared/responses/pick';
import { identityVerification } from '../identity-outcome';

const trimmed = text({ normalize: (value) => value.trim() });

/** What a model needs of the result details: each source with its record matches in a few words. */
function detailsForModel(details: unknown): IDataObject[] {
	return firstOf(details, 10, (detail) => {
		const { listed } = firstOf((detail as IDataObject)?.matches, 20, (m) =>
			pick(m, ['record', 'match']),
		);
		return {
			...pick(detail, ['datasource', 'country']),
			matches: listed.map((m) => `${String(m.record)}: ${String(m.match)}`),
		};
	}).listed;
}

export const verify: OperationDefinition = {
	value: 'verify',
	name: 'Verify Identity',
	action: 'Verify an identity',
	description:
		"Check a person's name, date of birth and address against official and commercial data sources: a total score and the match per source. Each check is billed by the provider.",
	method: 'POST',
	path: '/identity/verify',
	repeatable: true,
	toolDescription:
		"Check a person's identity against data sources. Supply firstName, lastName, birthDate (yyyy/mm/dd), street, postalCode, city and countryCode (ISO code such as DE); houseNumber, nationalId and phoneNumber (+ and digits) when known, never guessed. Returns identityVerification.outcome (verified, review or notVerified) with totalScore (100 verified, 75 partial, 50 or less no match) and the match per source. Each call is billed by the provider.",
	// No verdict without the provider's score: `{}` or HTML never becomes "not verified".
	expects: { oneOf: ['globalResult.totalScore'] },
	fields: [
		{
			property: {
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Erika',
			},
			rule: trimmed,
			nest: 'identity',
		},
		{
			property: {
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Mustermann',
			},
			rule: trimmed,
			nest: 'identity',
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'birthDate',
				type: 'string',
				default: '',
				required: true,
				placeholder: '1964/08/12',
			},
			rule: birthDate,
			nest: 'identity',
		},
		{
			property: {
				displayName: 'Street',
				name: 'street',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Heidestraße',
			},
			rule: trimmed,
			nest: 'address',
		},
		{
			property: {
				displayName: 'Postal Code',
				name: 'postalCode',
				type: 'string',
				default: '',
				required: true,
				placeholder: '51147',
			},
			rule: postalCode,
			nest: 'address',
		},
		{
			property: {
				displayName: 'City',
				name: 'city',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Köln',
			},
			rule: trimmed,
			nest: 'address',
		},
		{
			property: {
				displayName: 'Country Code',
				name: 'countryCode',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'DE',
			},
			rule: countryCode,
			nest: 'address',
		},
		{
			property: {
				displayName: 'House Number',
				name: 'houseNumber',
				type: 'string',
				default: '',
				placeholder: '17',
				description: 'Sent only when set. Some data sources need it: a 400 answer will say so.',
			},
			rule: trimmed,
			nest: 'address',
			additional: true,
		},
		{
			property: {
				displayName: 'Building',
				name: 'building',
				type: 'string',
				default: '',
				placeholder: 'Haus B',
			},
			rule: trimmed,
			nest: 'address',
			additional: true,
		},
		{
			property: {
				displayName: 'District',
				name: 'district',
				type: 'string',
				default: '',
				placeholder: 'Porz',
			},
			rule: trimmed,
			nest: 'address',
			additional: true,
		},
		{
			property: {
				displayName: 'Province',
				name: 'province',
				type: 'string',
				default: '',
				placeholder: 'Nordrhein-Westfalen',
			},
			rule: trimmed,
			nest: 'address',
			additional: true,
		},
		{
			property: {
				displayName: 'National ID',
				name: 'nationalId',
				type: 'string',
				default: '',
				placeholder: 'T22000129',
				description:
					'National identity number. Sent only when set; some countries need it: a 400 answer will say so.',
			},
			rule: trimmed,
			nest: 'identity',
			additional: true,
		},
		{
			property: {
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				placeholder: '+4915112345678',
				description:
					'With the international prefix; spaces, dashes and parentheses are removed. Sent as phone.phoneNumber.',
			},
			rule: internationalNumber,
			nest: 'phone',
			additional: true,
		},
		{
			property: {
				displayName: 'Raw Source Data',
				name: 'raw',
				type: 'boolean',
				default: false,
				description:
					"Whether the answer also carries each data source's raw response. Sent only when on.",
			},
			rule: boolean((on) => (on ? true : undefined)),
			additional: true,
		},
	],
	toolSummary: (json) => ({
		identityVerification: json.identityVerification,
		resultDetails: detailsForModel(valueAt(json, 'resultDetails')),
	}),
	toItems: (response) => [
		{
			json: {
				...responseJson(response.body),
				identityVerification: identityVerification(response.body),
			},
		},
	],
};

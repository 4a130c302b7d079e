import type { OperationDefinition } from '../../shared/operation-types';
import { boolean, choice, date, text, textList } from '../../shared/rules';

export const registerIndividual: OperationDefinition = {
	value: 'registerIndividual',
	name: 'Register Individual for Monitoring',
	action: 'Register an individual for ongoing monitoring',
	description: 'Add a person to ongoing AML monitoring under a search profile ID of your choice',
	method: 'POST',
	path: '/aml/ongoingMonitoring/registerIndividual',
	repeatable: true,
	toolDescription:
		"Add a person to ongoing AML monitoring: the provider keeps screening them under the profileId you choose until the profile is removed. Supply profileId and names (the person's name or names); dob (yyyy/mm/dd) and gender when known. Creates a monitoring profile the provider may bill until it is removed: call it only when the user asks for monitoring.",
	expects: { body: 'nothing' },
	fields: [
		{
			property: {
				displayName: 'Profile ID',
				name: 'profileId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'customer-4711',
				description: 'Your ID for this monitoring profile; use it later to remove the profile',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Names',
				name: 'names',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Jane Doe, Jane Smith',
				description: 'The name to monitor; separate several names (aliases) with commas',
			},
			rule: textList,
		},
		{
			property: {
				displayName: 'Gender',
				name: 'gender',
				type: 'options',
				options: [
					{ name: 'Female', value: 'FEMALE' },
					{ name: 'Male', value: 'MALE' },
					{ name: 'Unknown', value: 'UNKNOWN' },
				],
				default: 'FEMALE',
			},
			rule: choice,
			additional: true,
		},
		{
			property: { displayName: 'Date of Birth', name: 'dob', type: 'string', default: '', placeholder: '1980/04/30' },
			rule: date,
			additional: true,
		},
		{
			property: {
				displayName: 'Search All Lists',
				name: 'searchAll',
				type: 'boolean',
				default: false,
				description: 'Whether to monitor every list the account has access to',
			},
			rule: boolean(),
			additional: true,
		},
		{
			property: {
				displayName: 'Fuzzy Search',
				name: 'fuzzySearch',
				type: 'boolean',
				default: false,
				description: 'Whether to match similar spellings of the names too',
			},
			rule: boolean(),
			additional: true,
		},
	],
};

import { boolean, choice, date, text, textList } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';

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
		text('profileId', {
			displayName: 'Profile ID',
			required: true,
			placeholder: 'customer-4711',
			description: 'Your ID for this monitoring profile; use it later to remove the profile',
		}),
		textList('names', {
			displayName: 'Names',
			required: true,
			placeholder: 'Jane Doe, Jane Smith',
			description: 'The name to monitor; separate several names (aliases) with commas',
		}),
		choice('gender', {
			displayName: 'Gender',
			additional: true,
			options: [
				{ name: 'Female', value: 'FEMALE' },
				{ name: 'Male', value: 'MALE' },
				{ name: 'Unknown', value: 'UNKNOWN' },
			],
		}),
		date('dob', { displayName: 'Date of Birth', additional: true, placeholder: '1980/04/30' }),
		boolean('searchAll', {
			displayName: 'Search All Lists',
			additional: true,
			description: 'Whether to monitor every list the account has access to',
		}),
		boolean('fuzzySearch', {
			displayName: 'Fuzzy Search',
			additional: true,
			description: 'Whether to match similar spellings of the names too',
		}),
	],
};

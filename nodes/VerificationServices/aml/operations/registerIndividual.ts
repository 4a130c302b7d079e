import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { responseJson } from '../../../shared/responses/json';
import { boolean, choice, date, text } from '../../../shared/fields/rules';

/** The API takes its flags as the strings "true" and "false". */
const flagText = boolean((value) => String(value));

export const registerIndividual: OperationDefinition = {
	value: 'registerIndividual',
	name: 'Register Individual for Monitoring',
	action: 'Register an individual for ongoing monitoring',
	description: 'Add a person to ongoing AML monitoring under a search profile ID of your choice',
	method: 'POST',
	path: '/aml/ongoingMonitoring/registerIndividual',
	repeatable: true,
	effect: { does: "changes the account's AML monitoring" },
	toolDescription:
		"adds a person to ongoing AML monitoring: the provider keeps screening them under the profileId you choose until the profile is removed. Supply profileId and names (the person's full name); dob (yyyy/mm/dd) and gender when known. Creates a monitoring profile the provider may bill until it is removed: call it only when the user asks for monitoring.",
	expects: { body: 'nothing' },
	// One profileId names one profile (Remove Search Profile takes nothing else): a second item with the
	// same ID in one run would replace the first registration, never add a second one.
	oncePerRun: {
		field: 'profileId',
		why: 'one Profile ID names one monitoring profile, so this registration would replace that one. Give each person their own ID (e.g. your customer number) and register each once.',
	},
	fields: [
		{
			property: {
				displayName: 'Profile ID',
				name: 'profileId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'customer-4711',
				description:
					'Your ID for this monitoring profile, one per person (e.g. your customer number); Remove Search Profile takes only this ID. Two items with the same ID in one run are refused.',
			},
			rule: text(),
		},
		{
			// The API's reference types searchAll as a flag that "cannot be combined with names", while it
			// marks names required: the node offers searchAll as the alternative to names, never both.
			property: {
				displayName: 'Search All Instead of Names',
				name: 'searchAll',
				type: 'boolean',
				default: false,
				description:
					'Whether to register the profile with searchAll = "true" and without names. The API refuses the two together; its documentation does not say more about searchAll. Off (default): the profile monitors the name below.',
			},
			rule: {
				// Off is the default, not a choice to send: searchAll goes out only as "true", and only without names.
				toWire: (value, field) => (flagText.toWire(value, field) === 'true' ? 'true' : undefined),
			},
		},
		{
			property: {
				displayName: 'Names',
				name: 'names',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Jane Doe',
				description: 'The full name of the person to monitor, sent as one text',
				displayOptions: { show: { searchAll: [false] } },
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Gender',
				name: 'gender',
				type: 'options',
				options: [
					{ name: 'Female', value: 'female' },
					{ name: 'Male', value: 'male' },
				],
				default: 'female',
				description: 'Leave out when unknown',
			},
			rule: choice,
			additional: true,
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'dob',
				type: 'string',
				default: '',
				placeholder: '1980/04/30',
			},
			rule: date,
			additional: true,
		},
		{
			property: {
				displayName: 'Fuzzy Search',
				name: 'fuzzySearch',
				type: 'boolean',
				default: false,
				description:
					'Whether to match similar spellings of the name too. Sent as "true" or "false" once added.',
			},
			rule: flagText,
			additional: true,
		},
	],
	// The profileId at the top level: the older generation answers with no body at all.
	toItems: (response, { values }) => [
		{ json: { ...responseJson(response.body), profileId: values.profileId as string } },
	],
};

import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { text } from '../../../shared/fields/rules';

export const removeSearchProfile: OperationDefinition = {
	value: 'removeSearchProfile',
	name: 'Remove Search Profile',
	action: 'Remove a monitoring search profile',
	description: 'Stop ongoing monitoring for a profile registered earlier',
	method: 'POST',
	path: '/aml/ongoingMonitoring/removeSearchProfile',
	repeatable: true,
	effect: { does: "changes the account's AML monitoring" },
	toolDescription:
		"stops ongoing AML monitoring of the profile registered earlier under profileId. Supply profileId. Changes the account's monitoring: call it only when the user asks to stop monitoring that person.",
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
				description: 'The profile ID used when the individual was registered',
			},
			rule: text(),
		},
	],
};

import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { choice, integer } from '../../../shared/fields/rules';
import { journeyHints, journeyIdField } from '../journey-id';

export const verifyAge: OperationDefinition = {
	value: 'verifyAge',
	name: 'Verify Age and Disability',
	action: 'Verify age and disability',
	description:
		"Check the journey's person against a minimum or maximum age and a minimum disability percentage",
	method: 'POST',
	path: '/verify/age',
	repeatable: true,
	toolDescription:
		'Check the person of journey journeyId against an age limit (ageFrom: at least this old, or ageTo: at most this old, never both) and optionally a minimum disability percentage. Supply journeyId and the limit. Returns yes or no; the provider may bill each check.',
	hints: journeyHints,
	fields: [
		journeyIdField,
		// The API refuses ageFrom and ageTo together: one choice decides which of them exists.
		{
			property: {
				displayName: 'Age Condition',
				name: 'ageCondition',
				type: 'options',
				options: [
					{
						name: 'At Least',
						value: 'atLeast',
						description: 'The person is at least this old (ageFrom)',
					},
					{
						name: 'At Most',
						value: 'atMost',
						description: 'The person is at most this old (ageTo)',
					},
					{ name: 'None', value: 'none', description: 'Check the disability percentage only' },
				],
				default: 'atLeast',
				required: true,
				description:
					'Which age check to run; the API accepts a minimum or a maximum age, never both',
			},
			rule: choice,
			location: 'none',
		},
		{
			property: {
				displayName: 'Minimum Age',
				name: 'ageFrom',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 150 },
				default: 18,
				required: true,
				description: 'Minimum age in years for eligibility',
				displayOptions: { show: { ageCondition: ['atLeast'] } },
			},
			rule: integer,
		},
		{
			property: {
				displayName: 'Maximum Age',
				name: 'ageTo',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 150 },
				default: 65,
				required: true,
				description: 'Maximum age in years for eligibility',
				displayOptions: { show: { ageCondition: ['atMost'] } },
			},
			rule: integer,
		},
		{
			property: {
				displayName: 'Minimum Disability Percentage',
				name: 'minDisabilityPercentage',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 50,
				description: 'Minimum disability percentage required for eligibility',
			},
			rule: integer,
			additional: true,
		},
	],
};

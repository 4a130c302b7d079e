import { choice, integer } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';
import { journeyIdField } from './journeyId';

export const verifyAge: OperationDefinition = {
	value: 'verifyAge',
	name: 'Verify Age and Disability',
	action: 'Verify age and disability',
	description: "Check the journey's person against a minimum or maximum age and a minimum disability percentage",
	method: 'POST',
	path: '/verify/age',
	repeatable: true,
	toolDescription:
		'Check the person of journey journeyId against an age limit (ageFrom: at least this old, or ageTo: at most this old, never both) and optionally a minimum disability percentage. Supply journeyId and the limit. Returns yes or no; the provider may bill each check.',
	fields: [
		journeyIdField,
		// The API refuses ageFrom and ageTo together: one UI choice decides which of them exists.
		choice('ageCondition', {
			displayName: 'Age Condition',
			location: 'none',
			required: true,
			description: 'Which age check to run; the API accepts a minimum or a maximum age, never both',
			options: [
				{ name: 'At Least', value: 'atLeast', description: 'The person is at least this old (ageFrom)' },
				{ name: 'At Most', value: 'atMost', description: 'The person is at most this old (ageTo)' },
				{ name: 'None', value: 'none', description: 'Check the disability percentage only' },
			],
		}),
		integer('ageFrom', {
			displayName: 'Minimum Age',
			required: true,
			showWhen: { ageCondition: ['atLeast'] },
			min: 0,
			max: 150,
			default: 18,
			description: 'Minimum age in years for eligibility.',
		}),
		integer('ageTo', {
			displayName: 'Maximum Age',
			required: true,
			showWhen: { ageCondition: ['atMost'] },
			min: 0,
			max: 150,
			default: 65,
			description: 'Maximum age in years for eligibility.',
		}),
		integer('minDisabilityPercentage', {
			displayName: 'Minimum Disability Percentage',
			additional: true,
			min: 0,
			max: 100,
			default: 50,
			description: 'Minimum disability percentage required for eligibility.',
		}),
	],
};

import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { jsonObject } from '../../../shared/fields/rules';

export const openJourney: OperationDefinition = {
	value: 'openJourney',
	name: 'Open Journey',
	action: 'Open a verification journey',
	description:
		'Start a document verification journey; its journeyId is needed by Add Image, Verify Age and Verify Document',
	method: 'POST',
	path: '/openJourney',
	// Each call opens a new journey: never resent after a network error.
	repeatable: false,
	toolDescription:
		'Start a document verification journey and return its journeyId, which Add Image and Verify Age need. Needs no input. Creates a journey at the provider: start one per person, not per question.',
	receipt: 'journeyId',
	fields: [
		{
			property: {
				displayName: 'Pass Through Data',
				name: 'passThroughData',
				type: 'json',
				default: '{}',
				description: 'Your own metadata (a JSON object), returned with the journey',
			},
			rule: jsonObject,
			additional: true,
		},
	],
};

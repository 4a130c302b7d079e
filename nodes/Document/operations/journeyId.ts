import { text } from '../../shared/fields';

/** The journey every image and check belongs to; it comes from Open Journey. */
export const journeyIdField = text('journeyId', {
	displayName: 'Journey ID',
	required: true,
	placeholder: 'e.g. 3f0c2a9e-...',
	description: 'The journeyId returned by the Open Journey operation',
});

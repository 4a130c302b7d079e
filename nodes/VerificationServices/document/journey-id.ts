import type { ErrorHints, ValueField } from '../../shared/operation/operation-types';
import { text } from '../../shared/fields/rules';

/** The journey every image and check belongs to; it comes from Open Journey. */
export const journeyIdField: ValueField = {
	property: {
		displayName: 'Journey ID',
		name: 'journeyId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3f0c2a9e-...',
		description: 'The journeyId returned by the Open Journey operation',
	},
	rule: text(),
};

/** An unknown journey: the operations that take a journeyId say where one comes from. */
export const journeyHints: ErrorHints = {
	notFound:
		'Open a journey first (Document Verification > Open Journey) and pass its journeyId to this operation.',
};

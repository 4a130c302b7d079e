import {
	binaryFile,
	base64Check,
	base64UploadSize,
	normalizeBase64,
} from '../../../shared/fields/binary-input';
import { SentLater } from '../../../shared/fields/sent-later';
import { FieldError } from '../../../shared/fields/field-error';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { boolean, choice, jsonObject, text } from '../../../shared/fields/rules';
import { journeyHints, journeyIdField } from '../journey-id';

/** The name given, else the binary file's own name; required when neither exists. */
const imageName: Rule = {
	...text(),
	whenEmpty: ({ name, values }) => {
		const file = values.binaryPropertyName;
		if (file instanceof SentLater && typeof file.about.fileName === 'string')
			return file.about.fileName;
		throw new FieldError(
			name,
			file instanceof SentLater
				? `${name} is required when the binary file "${String(file.about.propertyName)}" has no file name`
				: `${name} is required when the image is given as a base64 string`,
		);
	},
};

export const addImage: OperationDefinition = {
	value: 'addImage',
	name: 'Add Image',
	action: 'Add an image to a journey',
	description: 'Upload the front or back of an ID document, or a selfie, to a verification journey',
	method: 'POST',
	path: '/addImage',
	// Sending twice would add the image twice.
	repeatable: false,
	toolDescription:
		'Upload one image (front or back of an ID document, or a selfie) to the journey journeyId. Supply journeyId and imageSide (front, back or selfie); the image itself comes from the workflow, never from you. Each call stores another image at the provider.',
	expects: { body: 'nothing' },
	hints: journeyHints,
	fields: [
		journeyIdField,
		{
			property: {
				displayName: 'Image Side',
				name: 'imageSide',
				type: 'options',
				options: [
					{ name: 'Front', value: 'front', description: 'Front side of the ID document' },
					{ name: 'Back', value: 'back', description: 'Back side of the ID document' },
					{ name: 'Selfie', value: 'selfie', description: 'A photo of the person' },
				],
				default: 'front',
				required: true,
			},
			rule: choice,
		},
		{
			property: {
				displayName: 'Image Source',
				name: 'imageSource',
				type: 'options',
				options: [
					{
						name: 'Binary File',
						value: 'binary',
						description:
							'A binary property of the input item, e.g. from Read Binary File or an HTTP download',
					},
					{
						name: 'Base64 String',
						value: 'base64',
						description: 'Base64-encoded image data given in a field',
					},
				],
				default: 'binary',
				required: true,
				description: 'Where the image comes from',
			},
			rule: choice,
			location: 'none',
		},
		{
			property: {
				displayName: 'Input Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				placeholder: 'data',
				description: 'The name of the input binary field holding the image (at most 20 MB)',
				displayOptions: { show: { imageSource: ['binary'] } },
			},
			rule: binaryFile,
			sendAs: 'imageData',
		},
		{
			property: {
				displayName: 'Image Data (Base64)',
				name: 'imageData',
				type: 'string',
				default: '',
				required: true,
				description: 'The image, base64-encoded',
				displayOptions: { show: { imageSource: ['base64'] } },
			},
			rule: text({ normalize: normalizeBase64, checks: [base64UploadSize, base64Check] }),
		},
		{
			property: {
				displayName: 'Image Name',
				name: 'imageName',
				type: 'string',
				default: '',
				placeholder: 'passport-front.jpg',
				description:
					"Name of the image file. Leave empty to use the binary file's name; required when the image is a base64 string.",
			},
			rule: imageName,
		},
		{
			property: {
				displayName: 'Store Only',
				name: 'storeOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to store the image without classifying it',
			},
			rule: boolean(),
			additional: true,
		},
		{
			property: {
				displayName: 'Pass Through Data',
				name: 'passThroughData',
				type: 'json',
				default: '{}',
				description: 'Your own metadata for this image (a JSON object)',
			},
			rule: jsonObject,
			additional: true,
		},
	],
};

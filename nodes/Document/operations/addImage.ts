import type { IExecuteFunctions } from 'n8n-workflow';

import { base64Rule, binaryAsBase64, binaryInput, normalizeBase64 } from '../../shared/binary-input';
import { FieldError } from '../../shared/field-error';
import { boolean, choice, jsonObject, parameter, text } from '../../shared/fields';
import type { FieldValues, OperationDefinition } from '../../shared/operation-types';
import { responseJson } from '../../shared/run-operations';
import { journeyIdField } from './journeyId';

const FROM_BINARY = { imageSource: ['binary'] };
const FROM_BASE64 = { imageSource: ['base64'] };

/** The image's name: the one given, else the binary file's name; undefined when neither exists. */
function imageNameOf(ctx: IExecuteFunctions, itemIndex: number, values: FieldValues): string | undefined {
	if (values.imageName !== undefined) return values.imageName as string;
	if (values.imageSource !== 'binary') return undefined;
	const fileName = binaryInput(ctx, itemIndex, values.binaryPropertyName as string).fileName;
	return fileName && fileName.trim() !== '' ? fileName : undefined;
}

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
	fields: [
		journeyIdField,
		choice('imageSide', {
			displayName: 'Image Side',
			required: true,
			options: [
				{ name: 'Front', value: 'front', description: 'Front side of the ID document' },
				{ name: 'Back', value: 'back', description: 'Back side of the ID document' },
				{ name: 'Selfie', value: 'selfie', description: 'A photo of the person' },
			],
		}),
		choice('imageSource', {
			displayName: 'Image Source',
			location: 'none',
			required: true,
			description: 'Where the image comes from',
			options: [
				{ name: 'Binary File', value: 'binary', description: 'A binary property of the input item, e.g. from Read Binary File or an HTTP download' },
				{ name: 'Base64 String', value: 'base64', description: 'Base64-encoded image data given in a field' },
			],
		}),
		parameter(
			'binaryPropertyName',
			{
				displayName: 'Input Binary Field',
				required: true,
				showWhen: FROM_BINARY,
				placeholder: 'data',
				description: 'The name of the input binary field holding the image',
			},
			{ type: 'string', default: 'data' },
			(value) => {
				const name = String(value).trim();
				if (name === '') throw new FieldError('binaryPropertyName', 'binaryPropertyName is required and must not be blank');
				return name;
			},
		),
		text('imageData', {
			displayName: 'Image Data (Base64)',
			required: true,
			showWhen: FROM_BASE64,
			normalize: normalizeBase64,
			rules: [base64Rule],
			description: 'The image, base64-encoded.',
		}),
		text('imageName', {
			displayName: 'Image Name',
			placeholder: 'id-front.jpg',
			description:
				"Name of the image file. Leave empty to use the binary file's name; required when the image is a base64 string.",
		}),
		boolean('storeOnly', {
			displayName: 'Store Only',
			additional: true,
			description: 'Whether to store the image without classifying it',
		}),
		jsonObject('passThroughData', {
			displayName: 'Pass Through Data',
			additional: true,
			description: 'Your own metadata for this image (a JSON object)',
		}),
	],
	validate: (values, { ctx, itemIndex }) => {
		// Looks at the binary's metadata only; its bytes are read while this item is being sent.
		if (values.imageSource === 'binary') binaryInput(ctx, itemIndex, values.binaryPropertyName as string);
		if (imageNameOf(ctx, itemIndex, values) === undefined) {
			throw new FieldError(
				'imageName',
				values.imageSource === 'binary'
					? `imageName is required when the binary file "${String(values.binaryPropertyName)}" has no file name`
					: 'imageName is required when the image is given as a base64 string',
			);
		}
	},
	run: async ({ ctx, itemIndex, values, send }, request) => {
		const imageName = imageNameOf(ctx, itemIndex, values);
		const imageData =
			values.imageSource === 'binary'
				? await binaryAsBase64(ctx, itemIndex, values.binaryPropertyName as string)
				: (values.imageData as string);
		const response = await send({ ...request, body: { ...request.body, imageName, imageData } });
		return [{ json: responseJson(response.body) }];
	},
};

import type { IBinaryKeyData, IDataObject } from 'n8n-workflow';

import { base64Check, normalizeBase64 } from '../../../shared/fields/binary-input';
import { isObject, responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { boolean } from '../../../shared/fields/rules';
import { imageType } from '../image-type';
import { journeyHints, journeyIdField } from '../journey-id';

/** What the JSON says about one cropped image that became a binary property. */
export interface CroppedImageFile extends IDataObject {
	binaryPropertyName: string;
	fileName: string;
	mimeType: string;
	sizeBytes: number;
}

/** A binary property name n8n accepts for the member (portrait, front, ...). */
const propertyName = (member: string) => member.replace(/[^A-Za-z0-9_-]/g, '_') || 'image';

export const verifyDocument: OperationDefinition = {
	value: 'verifyDocument',
	name: 'Verify Document',
	action: 'Verify the document of a journey',
	description:
		"Get the journey's verdict: identity subject, authoritative data, audit trail and fraud alerts, with the cropped images (portrait, front, ...) as binary files",
	method: 'POST',
	path: '/verify',
	toolDescription:
		'Ask for the verdict of document journey journeyId (opened with Open Journey, images added with Add Image). Supply journeyId. Returns the identity subject, the document data, the audit trail (workStatus PASS or not) and fraud alerts; the cropped images are files and are not shown to you. The provider may bill each verification.',
	// Reads the verdict of images already added: asking again gives the same result.
	repeatable: true,
	// The verdict, who was verified and with which document; the cropped images stay files either way.
	simplify: [
		'journeyId',
		'status',
		'auditTrail.workStatus',
		'auditTrail.workResult',
		'fraudAlerts.aggregateFraudAlertScore',
		'identitySubject.fullName',
		'identitySubject.dob',
		'authoritativeData.identityDocument.idNumber',
		'passThroughData',
		'croppedImageFiles.portrait.fileName',
		// Only there with Keep Images as Base64 in JSON: files are kept either way.
		'croppedImages',
	],
	// No verdict without a verification result.
	expects: { oneOf: ['journeyId', 'status', 'identitySubject'] },
	hints: journeyHints,
	fields: [journeyIdField],
	options: [
		{
			property: {
				displayName: 'Keep Images as Base64 in JSON',
				name: 'keepImagesInJson',
				type: 'boolean',
				default: false,
				description:
					'Whether to leave the cropped images as base64 text in croppedImages instead of turning each one into a binary property (portrait, front, back, selfie, signature)',
			},
			rule: boolean(),
		},
	],
	toItems: async (response, { ctx, values }) => {
		const json = responseJson(response.body);
		if (values.keepImagesInJson === true || !isObject(json.croppedImages)) return [{ json }];

		const binary: IBinaryKeyData = {};
		const files: Record<string, CroppedImageFile> = {};
		const left: IDataObject = {};
		for (const [member, value] of Object.entries(json.croppedImages)) {
			const base64 = typeof value === 'string' ? normalizeBase64(value) : '';
			if (!base64Check.test(base64)) {
				// Not an image we can read (null, a URL, ...): it stays in the JSON untouched.
				left[member] = value;
				continue;
			}
			const bytes = Buffer.from(base64, 'base64');
			const { mimeType, extension } = imageType(bytes);
			const name = propertyName(member);
			const fileName = `${name}.${extension}`;
			binary[name] = await ctx.helpers.prepareBinaryData(bytes, fileName, mimeType);
			files[member] = { binaryPropertyName: name, fileName, mimeType, sizeBytes: bytes.length };
		}
		const rest = { ...json };
		delete rest.croppedImages;
		return [
			{
				json: {
					...rest,
					...(Object.keys(left).length ? { croppedImages: left } : {}),
					croppedImageFiles: files,
				},
				...(Object.keys(binary).length ? { binary } : {}),
			},
		];
	},
};

import type { INodeExecutionData } from 'n8n-workflow';

import { contentTypeOf } from '../../../shared/transport/response-check';
import { baseFileName } from '../../../shared/responses/file-name';
import { responseJson } from '../../../shared/responses/json';
import type { ApiResponse, OperationDefinition } from '../../../shared/operation/operation-types';
import { check, text } from '../../../shared/fields/rules';

/**
 * The file name a Content-Disposition header gives (`filename*=UTF-8''...` or `filename="..."`), if
 * any, as a base name (no folder, no "../") whichever form carried it.
 */
export function fileNameOf(headers: ApiResponse['headers']): string | undefined {
	const disposition = String(headers['content-disposition'] ?? '');
	const encoded = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition);
	if (encoded) {
		try {
			const name = baseFileName(decodeURIComponent(encoded[1].trim()));
			if (name) return name;
		} catch {
			// falls back to the plain filename
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
	return baseFileName(plain?.[2] ?? plain?.[1]);
}

export const retrieveDocument: OperationDefinition = {
	value: 'retrieveDocument',
	name: 'Retrieve Document',
	action: 'Retrieve a company document',
	description:
		'Fetch one register document or transparency-register entry by the linkToken of a Get Company Details result: a file becomes binary data, a JSON answer is output as it is',
	method: 'POST',
	path: '/kyb/company/document/retrieve',
	repeatable: true,
	toolDescription:
		'Fetch one company document or transparency-register entry by its linkToken (from the documents or transparency package of Get Company Details). Supply linkToken. A file (such as a PDF register extract) is kept in the workflow and described to you by name, type and size only. Read-only; the provider may bill each retrieval.',
	expects: { body: 'jsonOrFile' },
	fields: [
		{
			property: {
				displayName: 'Link Token',
				name: 'linkToken',
				type: 'string',
				typeOptions: { password: true },
				default: '={{ $json.linkToken }}',
				required: true,
				placeholder: 'lt-DE-HRB-123456-register-extract',
				description:
					"The linkToken of a document or transparency entry. Get Company Details lists every one it carries under linkTokens: split them out (Split Out node, field linkTokens) and the default reads each item's linkToken.",
			},
			rule: text({ normalize: (value) => value.trim() }),
		},
	],
	options: [
		{
			property: {
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description: 'The binary field that receives the file when the API answers with one',
			},
			rule: {
				...text({
					normalize: (value) => value.trim(),
					checks: [check.pattern(/^[A-Za-z0-9_-]{1,100}$/, 'letters, digits, _ and -')],
				}),
				whenEmpty: () => 'data',
			},
		},
	],
	toItems: async (response, { ctx, values }): Promise<INodeExecutionData[]> => {
		if (!Buffer.isBuffer(response.body)) return [{ json: responseJson(response.body) }];
		const mimeType = contentTypeOf(response.headers) || 'application/octet-stream';
		const fileName = fileNameOf(response.headers);
		const file = await ctx.helpers.prepareBinaryData(response.body, fileName, mimeType);
		const property = values.binaryPropertyName as string;
		return [
			{
				json: {
					linkToken: values.linkToken as string,
					binaryPropertyName: property,
					fileName: file.fileName ?? null,
					mimeType: file.mimeType,
					sizeBytes: response.body.length,
				},
				binary: { [property]: file },
			},
		];
	},
};

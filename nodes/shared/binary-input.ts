import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { SentLater } from './build-request';
import { FieldError, quote } from './field-error';
import type { Rule } from './operation-types';
import type { TextCheck } from './rules';

/**
 * Binary input for operations that upload a file, in two phases so memory stays flat: validation
 * only looks at the item's binary metadata, and the bytes are read while that item is sent.
 */

/** The binary property `propertyName` of the item, or a FieldError naming the parameter and the item's properties. */
function binaryInput(ctx: IExecuteFunctions, itemIndex: number, propertyName: string, parameterName: string): IBinaryData {
	let binary: IBinaryData | undefined;
	try {
		binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	} catch {
		// said below, naming the parameter and what the item has
	}
	if (binary) return binary;
	const present = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	const found = present.length ? `the item has ${present.map((name) => `"${name}"`).join(', ')}` : 'the item has no binary data at all';
	throw new FieldError(parameterName, `${parameterName} must name a binary property of the input item, got ${quote(propertyName)} (${found})`);
}

/**
 * The name of an input binary field (n8n's binaryPropertyName): checked against the item while
 * validating, sent as the file's base64 content read when the item is sent. Its file name is known
 * beforehand (`about.fileName`).
 */
export const binaryFile: Rule = {
	toWire: (value, { name, ctx, itemIndex }) => {
		const propertyName = String(value).trim();
		if (propertyName === '') throw new FieldError(name, `${name} is required and must not be blank`);
		const { fileName } = binaryInput(ctx, itemIndex, propertyName, name);
		const read = async () => (await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName)).toString('base64');
		return new SentLater(read, { propertyName, ...(fileName && fileName.trim() !== '' ? { fileName } : {}) });
	},
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Makes pasted base64 acceptable: drops a `data:<type>;base64,` prefix and whitespace (line breaks),
 * and adds the `=` padding some encoders leave out. Anything else is left for `base64Check` to refuse.
 */
export function normalizeBase64(value: string): string {
	const compact = value.replace(/^data:[^,;]*(?:;[^,;]*)*;base64,/i, '').replace(/\s+/g, '');
	const rest = compact.length % 4;
	return rest === 2 || rest === 3 ? compact + '='.repeat(4 - rest) : compact;
}

/** Standard base64 (RFC 4648 section 4), non-empty; use with `normalizeBase64`. */
export const base64Check: TextCheck = {
	hint: 'base64-encoded data (letters, digits, + and /, padded with =; a data: URL prefix and line breaks are removed)',
	test: (value) => value.length > 0 && BASE64.test(value),
};

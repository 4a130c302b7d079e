import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { FieldError, quote } from './field-error';
import type { TextRule } from './fields';

/**
 * Binary input for operations that upload a file. Two phases, so memory stays flat:
 * `binaryInput` only looks at the item's binary metadata (validation, before any request), and
 * `binaryAsBase64` reads one item's bytes inside the request phase (an operation's `run` hook).
 */

/** The binary property `propertyName` of the item, or a FieldError naming the parameter and the item's properties. */
export function binaryInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	parameterName = 'binaryPropertyName',
): IBinaryData {
	try {
		return ctx.helpers.assertBinaryData(itemIndex, propertyName);
	} catch {
		const item = ctx.getInputData()[itemIndex];
		const present = Object.keys(item?.binary ?? {});
		const found = present.length
			? `the item has ${present.map((name) => `"${name}"`).join(', ')}`
			: 'the item has no binary data at all';
		return missing(parameterName, propertyName, found);
	}
}

function missing(parameterName: string, propertyName: string, found: string): never {
	throw new FieldError(
		parameterName,
		`${parameterName} must name a binary property of the input item, got ${quote(propertyName)} (${found})`,
	);
}

/** The item's binary as base64, read now: call it only while sending that item. */
export async function binaryAsBase64(ctx: IExecuteFunctions, itemIndex: number, propertyName: string): Promise<string> {
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return buffer.toString('base64');
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Makes pasted base64 acceptable: drops a `data:<type>;base64,` prefix and whitespace (line breaks),
 * and adds the `=` padding some encoders leave out. Anything else is left for `base64Rule` to refuse.
 */
export function normalizeBase64(value: string): string {
	const compact = value.replace(/^data:[^,;]*(?:;[^,;]*)*;base64,/i, '').replace(/\s+/g, '');
	const rest = compact.length % 4;
	return rest === 2 || rest === 3 ? compact + '='.repeat(4 - rest) : compact;
}

/** Standard base64 (RFC 4648 section 4), non-empty; use with `normalizeBase64`. */
export const base64Rule: TextRule = {
	hint: 'base64-encoded data (letters, digits, + and /, padded with =; a data: URL prefix and line breaks are removed)',
	test: (value) => value.length > 0 && BASE64.test(value),
};

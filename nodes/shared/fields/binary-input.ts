import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { SentLater } from './sent-later';
import { FieldError, quote } from './field-error';
import type { Rule } from './field-types';
import type { TextCheck } from './rules';

/**
 * Binary input for operations that upload a file, in two phases so memory stays flat: validation
 * only looks at the item's binary metadata, and the bytes are read while that item is sent.
 */

/**
 * The largest file an upload sends. The API documents no limit; a photo of an identity document is a
 * few MB. Each upload is held in memory while it is sent (as bytes, then as base64, a third larger),
 * and up to the concurrency window's items are sent at once, so an unbounded file could exhaust n8n.
 */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const MAX_UPLOAD_TEXT = '20 MB';

function megabytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tooLarge(parameterName: string, propertyName: string, size: string): FieldError {
	return new FieldError(
		parameterName,
		`${parameterName} must name a file of at most ${MAX_UPLOAD_TEXT}, got "${propertyName}" of ${size}`,
	);
}

/** The file's size when n8n says it without reading it: its byte count, or the length of inline base64. */
function knownSize(binary: IBinaryData): number | undefined {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (!binary.id && typeof binary.data === 'string')
		return Buffer.byteLength(binary.data, 'base64');
	return undefined;
}

/**
 * The bytes of a stored file, counted as they arrive: beyond MAX_UPLOAD_BYTES the stream is closed and
 * the file refused, before it is held whole.
 */
async function readCapped(
	ctx: IExecuteFunctions,
	id: string,
	parameterName: string,
	propertyName: string,
): Promise<Buffer> {
	const stream = await ctx.helpers.getBinaryStream(id);
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		total += (chunk as Buffer).length;
		if (total > MAX_UPLOAD_BYTES) {
			stream.destroy();
			throw tooLarge(parameterName, propertyName, `more than ${MAX_UPLOAD_TEXT}`);
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** The binary property `propertyName` of the item, or a FieldError naming the parameter and the item's properties. */
function binaryInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	parameterName: string,
): IBinaryData {
	let binary: IBinaryData | undefined;
	try {
		binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	} catch {
		// said below, naming the parameter and what the item has
	}
	if (binary) return binary;
	const present = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	const found = present.length
		? `the item has ${present.map((name) => `"${name}"`).join(', ')}`
		: 'the item has no binary data at all';
	throw new FieldError(
		parameterName,
		`${parameterName} must name a binary property of the input item, got ${quote(propertyName)} (${found})`,
	);
}

/**
 * The name of an input binary field (n8n's binaryPropertyName): checked against the item while
 * validating, sent as the file's base64 content read when the item is sent. Its file name is known
 * beforehand (`about.fileName`).
 */
export const binaryFile: Rule = {
	toWire: (value, { name, ctx, itemIndex }) => {
		const propertyName = String(value).trim();
		if (propertyName === '')
			throw new FieldError(name, `${name} is required and must not be blank`);
		const binary = binaryInput(ctx, itemIndex, propertyName, name);
		const size = knownSize(binary);
		if (size !== undefined && size > MAX_UPLOAD_BYTES)
			throw tooLarge(name, propertyName, megabytes(size));
		const readFile = async () =>
			(binary.id
				? await readCapped(ctx, binary.id, name, propertyName)
				: await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName)
			).toString('base64');
		const { fileName } = binary;
		return new SentLater(readFile, {
			propertyName,
			...(fileName && fileName.trim() !== '' ? { fileName } : {}),
		});
	},
};

/**
 * Base64 characters with at most two `=` at the end; with a length divisible by 4, standard base64.
 * (A pattern of repeated 4-character groups overflows the stack on 5 MB of text.)
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Makes pasted base64 acceptable: drops a `data:<type>;base64,` prefix and whitespace (line breaks),
 * and adds the `=` padding some encoders leave out. Anything else is left for `base64Check` to refuse.
 */
export function normalizeBase64(value: string): string {
	const compact = value.replace(/^data:[^,;]*(?:;[^,;]*)*;base64,/i, '').replace(/\s+/g, '');
	const rest = compact.length % 4;
	return rest === 2 || rest === 3 ? compact + '='.repeat(4 - rest) : compact;
}

/** Base64 text of at most MAX_UPLOAD_BYTES once decoded, for an upload pasted or given by an expression. */
export const base64UploadSize: TextCheck = {
	hint: `at most ${MAX_UPLOAD_TEXT} once decoded`,
	test: (value) => Math.floor((value.length * 3) / 4) <= MAX_UPLOAD_BYTES + 2,
};

/** Standard base64 (RFC 4648 section 4), non-empty; use with `normalizeBase64`. */
export const base64Check: TextCheck = {
	hint: 'base64-encoded data (letters, digits, + and /, padded with =; a data: URL prefix and line breaks are removed)',
	test: (value) => value.length > 0 && value.length % 4 === 0 && BASE64.test(value),
};

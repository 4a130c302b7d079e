import { type Hash, createHash, hash as hashOnce } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

const isContainer = (value: unknown): value is object =>
	value !== null && typeof value === 'object';

/** JSON text of a value that is not an object or array (undefined, as in an array, becomes null). */
const leaf = (value: unknown): string => JSON.stringify(value) ?? 'null';

/**
 * Writes JSON with object keys sorted at every level (the same content always gives the same text)
 * to `emit`, piece by piece. An explicit stack instead of recursion: any depth JSON.parse accepts
 * (n8n's body parser) is fine, 10,000 levels or more. On the stack, a string is text to write and
 * anything else an object or array still to be opened.
 */
export function writeCanonicalJson(value: unknown, emit: (piece: string) => void): void {
	if (!isContainer(value)) {
		emit(leaf(value));
		return;
	}
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const current = stack.pop();
		if (typeof current === 'string') {
			emit(current);
			continue;
		}
		if (Array.isArray(current)) {
			stack.push(']');
			for (let i = current.length - 1; i >= 0; i--) {
				const separator = i > 0 ? ',' : '';
				const child: unknown = current[i];
				if (isContainer(child)) {
					stack.push(child);
					if (separator) stack.push(separator);
				} else {
					stack.push(separator + leaf(child));
				}
			}
			stack.push('[');
			continue;
		}
		const object = current as IDataObject;
		const keys = Object.keys(object)
			.filter((key) => object[key] !== undefined)
			.sort();
		stack.push('}');
		for (let i = keys.length - 1; i >= 0; i--) {
			const prefix = `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`;
			const child: unknown = object[keys[i]];
			if (isContainer(child)) {
				stack.push(child);
				stack.push(prefix);
			} else {
				stack.push(prefix + leaf(child));
			}
		}
		stack.push('{');
	}
}

export function canonicalJson(value: unknown): string {
	const pieces: string[] = [];
	writeCanonicalJson(value, (piece) => pieces.push(piece));
	return pieces.join('');
}

/**
 * SHA-256 (hex) of the canonical JSON, fed to the hash in chunks (a 5 MB body is never one string):
 * two bodies with the same content have the same hash whatever their key order and spacing.
 * `rewrite` changes each piece of the text before it is hashed (secrets cut out): a string value or
 * a key is always whole within one piece.
 */
export function bodyHash(body: unknown, rewrite?: (piece: string) => string): string {
	let hash: Hash | undefined;
	let chunk = '';
	writeCanonicalJson(body, (piece) => {
		chunk += rewrite ? rewrite(piece) : piece;
		if (chunk.length >= 65_536) {
			hash ??= createHash('sha256');
			hash.update(chunk);
			chunk = '';
		}
	});
	// Most bodies are small: one call costs a third of a Hash object (Node 20.12 and later).
	if (!hash && typeof hashOnce === 'function') return hashOnce('sha256', chunk, 'hex');
	return (hash ?? createHash('sha256')).update(chunk).digest('hex');
}

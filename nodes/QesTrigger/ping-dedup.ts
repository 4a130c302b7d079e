import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { bodyStatus, pingSessionId } from './ping-fields';

export type DuplicateKey = 'body' | 'sessionStatus';

/** A literal piece of output, or a value still to be written. */
type Task = { text: string } | { value: unknown };

/**
 * Writes JSON with object keys sorted at every level (the same content always gives the same text)
 * to `emit`, piece by piece. An explicit stack instead of recursion: any depth JSON.parse accepts
 * (n8n's body parser) is fine, 10,000 levels or more.
 */
export function writeCanonicalJson(value: unknown, emit: (piece: string) => void): void {
	const stack: Task[] = [{ value }];
	while (stack.length > 0) {
		const task = stack.pop()!;
		if ('text' in task) {
			emit(task.text);
			continue;
		}
		const current = task.value;
		if (current === null || typeof current !== 'object') {
			emit(JSON.stringify(current) ?? 'null');
			continue;
		}
		if (Array.isArray(current)) {
			stack.push({ text: ']' });
			for (let i = current.length - 1; i >= 0; i--) {
				stack.push({ value: current[i] === undefined ? null : current[i] });
				if (i > 0) stack.push({ text: ',' });
			}
			stack.push({ text: '[' });
			continue;
		}
		const keys = Object.keys(current)
			.filter((key) => (current as IDataObject)[key] !== undefined)
			.sort();
		stack.push({ text: '}' });
		for (let i = keys.length - 1; i >= 0; i--) {
			stack.push({ value: (current as IDataObject)[keys[i]] });
			stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
		}
		stack.push({ text: '{' });
	}
}

export function canonicalJson(value: unknown): string {
	const pieces: string[] = [];
	writeCanonicalJson(value, (piece) => pieces.push(piece));
	return pieces.join('');
}

/** SHA-256 (hex) of the canonical JSON, fed to the hash in chunks (a 5 MB body is never one string). */
export function pingHash(body: unknown): string {
	const hash = createHash('sha256');
	let chunk = '';
	writeCanonicalJson(body, (piece) => {
		chunk += piece;
		if (chunk.length >= 65_536) {
			hash.update(chunk);
			chunk = '';
		}
	});
	hash.update(chunk);
	return hash.digest('hex');
}

/**
 * What two pings must share to count as the same: the whole body (canonical JSON, so key order and
 * whitespace do not matter), or the session and its status (read as the filter reads them); a ping
 * without both falls back to its whole body. 32 hex chars (128 bits of SHA-256): static data stays small.
 */
export function duplicateKey(body: unknown, mode: DuplicateKey): string {
	if (mode === 'sessionStatus') {
		const session = pingSessionId(body);
		const status = bodyStatus(body);
		if (session !== undefined && status !== undefined) {
			return createHash('sha256').update(JSON.stringify(['sessionStatus', session, status.toLowerCase()])).digest('hex').slice(0, 32);
		}
	}
	return pingHash(body).slice(0, 32);
}

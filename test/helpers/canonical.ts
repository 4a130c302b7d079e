import { createHash } from 'node:crypto';

/** RFC 8785 canonical JSON of plain JSON values, written apart from the node's, so tests can check its hashes. */
export const canonical = (value: unknown): string =>
	Array.isArray(value)
		? `[${value.map(canonical).join(',')}]`
		: value !== null && typeof value === 'object'
			? `{${Object.keys(value)
					.sort()
					.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
					.join(',')}}`
			: JSON.stringify(value);

export const canonicalSha256 = (value: unknown): string => createHash('sha256').update(canonical(value)).digest('hex');

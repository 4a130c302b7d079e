/** A value that breaks a field's rule; the node turns it into a NodeOperationError for the item. */
export class FieldError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'FieldError';
	}
}

/** Quotes what the user gave, shortened, so the message shows it without flooding the UI. */
export function quote(value: unknown): string {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
	return typeof value === 'string' ? `"${short}"` : short;
}

/** "<field> must be <rule>, got <value>": the one shape every rule violation takes. */
export function ruleBroken(field: string, rule: string, value: unknown): FieldError {
	return new FieldError(field, `${field} must be ${rule}, got ${quote(value)}`);
}

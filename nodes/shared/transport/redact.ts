/**
 * The one place where secrets are cut out of text the node shows, logs or stores: the API key, the
 * customer id, access tokens, OTP codes and webhook secrets. An API may echo the request (its headers
 * or body) in an error answer, plainly, inside JSON, URL-encoded or base64-encoded; every form goes.
 */

export const REDACTED = '[redacted]';

/** Shorter values (a 1- or 2-digit code) would cut ordinary words and numbers out of messages. */
const MIN_SECRET_LENGTH = 3;

/** The ways a secret may appear in an echoed request. */
function formsOf(secret: string): string[] {
	const forms = new Set<string>([
		secret,
		JSON.stringify(secret).slice(1, -1),
		encodeURIComponent(secret),
	]);
	forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
	if (secret.length >= 8) {
		const base64 = Buffer.from(secret, 'utf8').toString('base64');
		forms.add(base64);
		forms.add(base64.replace(/=+$/, ''));
		forms.add(Buffer.from(secret, 'utf8').toString('base64url'));
	}
	return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

export class Redactor {
	private readonly forms: string[] = [];

	constructor(secrets: Iterable<unknown> = []) {
		this.add(...secrets);
	}

	/** Adds secrets: strings, or objects whose string values are secrets (webhook auth headers). */
	add(...secrets: unknown[]): this {
		for (const secret of secrets) {
			if (secret !== null && typeof secret === 'object') {
				this.add(...Object.values(secret));
				continue;
			}
			if (typeof secret !== 'string' && typeof secret !== 'number') continue;
			const text = String(secret).trim();
			if (text.length < MIN_SECRET_LENGTH) continue;
			for (const form of formsOf(text)) if (!this.forms.includes(form)) this.forms.push(form);
		}
		// Longest first, so a secret that contains another is cut out whole.
		this.forms.sort((a, b) => b.length - a.length);
		return this;
	}

	/** A copy that also knows `secrets`. */
	with(...secrets: unknown[]): Redactor {
		const copy = new Redactor();
		copy.forms.push(...this.forms);
		return copy.add(...secrets);
	}

	text(value: string): string {
		let out = value;
		for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
		return out;
	}

	/** A deep copy of a JSON-like value with every secret cut out of its strings (and keys). */
	value<T>(value: T, depth = 0): T {
		if (typeof value === 'string') return this.text(value) as T;
		if (value === null || typeof value !== 'object' || depth > 12) return value;
		if (Buffer.isBuffer(value)) return this.text(value.toString('utf8')) as T;
		if (Array.isArray(value)) return value.map((entry) => this.value(entry, depth + 1)) as T;
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [this.text(key), this.value(entry, depth + 1)]),
		) as T;
	}

	/**
	 * Cuts the secrets out of an error in place (message, description, stack, context, cause, the
	 * stored response and any nested value), so it keeps its class and n8n's handling of it.
	 */
	error<T>(error: T): T {
		if (error === null || typeof error !== 'object' || !this.forms.length) return error;
		const seen = new WeakSet<object>();
		const scrub = (value: unknown, depth: number): unknown => {
			if (typeof value === 'string') return this.text(value);
			if (value === null || typeof value !== 'object' || depth > 8 || seen.has(value)) return value;
			seen.add(value);
			const target = value as Record<string, unknown>;
			const keys = new Set([
				...Object.keys(target),
				...(value instanceof Error ? ['message', 'stack', 'cause'] : []),
			]);
			for (const key of keys) {
				if (key === 'node' || key === 'workflow') continue;
				try {
					const next = scrub(target[key], depth + 1);
					if (next !== target[key]) target[key] = next;
				} catch {
					// a read-only property: leave it
				}
			}
			return value;
		};
		scrub(error, 0);
		return error;
	}
}

/** Shorthand for a one-off: `secrets` cut out of `error` in place. */
export function redactError<T>(error: T, secrets: unknown[]): T {
	return new Redactor(secrets).error(error);
}

/** One secret cut out of an error in place (the trigger's webhook secret). */
export function withoutSecret<T>(error: T, secret: string): T {
	return redactError(error, [secret]);
}

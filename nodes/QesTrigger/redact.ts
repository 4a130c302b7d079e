/**
 * Removes a secret from an error before it leaves the node: message, stack, description and any
 * nested value (an API body that echoed the request, for example). The error keeps its class.
 */
export function withoutSecret<T>(error: T, secret: string): T {
	if (!secret) return error;
	const seen = new WeakSet<object>();
	const scrub = (value: unknown, depth: number): unknown => {
		if (typeof value === 'string') return value.includes(secret) ? value.split(secret).join('[redacted]') : value;
		if (value === null || typeof value !== 'object' || depth > 6 || seen.has(value)) return value;
		seen.add(value);
		const target = value as Record<string, unknown>;
		for (const key of Object.keys(target)) {
			try {
				const next = scrub(target[key], depth + 1);
				if (next !== target[key]) target[key] = next;
			} catch {
				// read-only property: leave it
			}
		}
		return value;
	};
	if (error !== null && typeof error === 'object') {
		const e = error as unknown as Record<string, unknown>;
		for (const key of ['message', 'stack', 'description']) {
			if (typeof e[key] === 'string') e[key] = scrub(e[key], 0);
		}
		scrub(error, 0);
	}
	return error;
}

import { type JsonObject, NodeApiError } from 'n8n-workflow';

const REDACTED = '[redacted]';

function redact(text: string | undefined | null, secrets: string[]): string | undefined {
	if (typeof text !== 'string') return undefined;
	return secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

/** A copy of a JSON value with every secret cut out of its strings. */
function redactDeep(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secrets)]));
	}
	return value;
}

/**
 * An API error with every value the user sent as a secret (a header value, a one-time code) cut out
 * of it, in case the API echoes the request in its error body. Other errors pass unchanged.
 */
export function withoutSecrets(error: unknown, secrets: string[], itemIndex: number): unknown {
	secrets = secrets.filter((secret) => secret !== '');
	if (!(error instanceof NodeApiError) || !secrets.length) return error;
	const { errorResponse } = error as { errorResponse?: unknown };
	let shown: string;
	try {
		shown = JSON.stringify([error.message, error.description, error.messages, errorResponse, error.cause, error.context]);
	} catch {
		shown = `${error.message} ${error.description ?? ''}`;
	}
	if (!secrets.some((secret) => shown.includes(secret))) return error;
	const body = errorResponse !== null && typeof errorResponse === 'object' ? errorResponse : { message: error.message };
	return new NodeApiError(error.node, redactDeep(body, secrets) as JsonObject, {
		message: redact(error.message, secrets),
		description: redact(error.description, secrets),
		httpCode: error.httpCode ?? undefined,
		itemIndex,
	});
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export interface RequestSettings {
	maxConcurrentRequests: number;
	/** 0: no fixed quota; the node then adapts to the API's 429 answers. */
	maxRequestsPerSecond: number;
	maxRetries: number;
	/** How long one request (the token exchange included) may take before it counts as failed. */
	timeoutSeconds?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 30;

/** The request-behaviour entries every operation's Options collection carries. */
export const requestSettingsOptions: INodeProperties[] = [
	{
		displayName: 'Max Concurrent Requests',
		name: 'maxConcurrentRequests',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 5,
		description: 'How many items this node sends to the API at the same time',
	},
	{
		displayName: 'Max Requests per Second',
		name: 'maxRequestsPerSecond',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description:
			"Your account's request quota for this n8n process: all executions using the same credential share it. With several queue-mode workers, divide the quota by their number. 0 means unknown: the node then slows down by itself when the API answers 429 (too many requests).",
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 20 },
		default: 5,
		description:
			'How often one request is retried after 429 (rate limit) or 503 (unavailable) before its item fails. Operations that move money or send a message (deposit, OTP, journey, image, session link) are resent only after 401 and 429, when the API refused them before acting.',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: DEFAULT_TIMEOUT_SECONDS,
		description:
			'How long to wait for one answer of the API (also for the token exchange). A read that timed out is tried once more; an operation that moves money or sends a message is never resent after a timeout.',
	},
];

export const DEFAULT_REQUEST_SETTINGS = Object.fromEntries(
	requestSettingsOptions.map((option) => [option.name, option.default]),
) as unknown as RequestSettings;

/** Read once per run, from the first item: the settings bound the whole run, not one item. */
export function readRequestSettings(ctx: IExecuteFunctions): RequestSettings {
	const options = ctx.getNodeParameter('options', 0, {}) as Partial<RequestSettings>;
	const pick = (name: keyof RequestSettings, min: number): number => {
		const value = Number(options[name] ?? DEFAULT_REQUEST_SETTINGS[name]);
		return Number.isFinite(value) && value >= min ? value : (DEFAULT_REQUEST_SETTINGS[name] as number);
	};
	return {
		maxConcurrentRequests: Math.floor(pick('maxConcurrentRequests', 1)),
		maxRequestsPerSecond: pick('maxRequestsPerSecond', 0),
		maxRetries: Math.floor(pick('maxRetries', 0)),
		timeoutSeconds: pick('timeoutSeconds', 0.1),
	};
}

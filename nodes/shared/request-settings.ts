import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export interface RequestSettings {
	maxConcurrentRequests: number;
	/** 0: no fixed quota; the node then adapts to the API's 429 answers. */
	maxRequestsPerSecond: number;
	maxRetries: number;
}

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
			'How often one request is retried after 429 (rate limit) or 503 (unavailable) before its item fails. Requests that moved money or sent a message are never repeated after a success.',
	},
];

export const DEFAULT_REQUEST_SETTINGS = Object.fromEntries(
	requestSettingsOptions.map((option) => [option.name, option.default]),
) as unknown as RequestSettings;

/** Read once per run, from the first item: the settings bound the whole run, not one item. */
export function readRequestSettings(ctx: IExecuteFunctions): RequestSettings {
	const options = ctx.getNodeParameter('options', 0, {}) as Partial<RequestSettings>;
	const pick = (name: keyof RequestSettings, min: number) => {
		const value = Number(options[name] ?? DEFAULT_REQUEST_SETTINGS[name]);
		return Number.isFinite(value) && value >= min ? value : DEFAULT_REQUEST_SETTINGS[name];
	};
	return {
		maxConcurrentRequests: Math.floor(pick('maxConcurrentRequests', 1)),
		maxRequestsPerSecond: pick('maxRequestsPerSecond', 0),
		maxRetries: Math.floor(pick('maxRetries', 0)),
	};
}

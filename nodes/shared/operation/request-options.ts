import { INITIAL_WINDOW, MAX_WINDOW } from '../transport/concurrency-window';
import { ruleBroken } from '../fields/field-error';
import type { Rule, ValueField } from './operation-types';
import {
	MAX_REQUESTS_PER_SECOND,
	MAX_TIMEOUT_SECONDS,
	MIN_REQUESTS_PER_SECOND,
	MIN_TIMEOUT_SECONDS,
} from '../transport/request-types';
import { integer, number } from '../fields/rules';

const RATE_RULE = `0 (no known quota) or a number from ${MIN_REQUESTS_PER_SECOND} to ${MAX_REQUESTS_PER_SECOND}`;

/** 0 (no known quota), or a rate within the bounds: the property's maxValue, and at least MIN_REQUESTS_PER_SECOND. */
const requestRate: Rule = {
	hint: RATE_RULE,
	toWire: (value, field) => {
		let rate: unknown;
		try {
			rate = number.toWire(value, field);
		} catch {
			rate = undefined;
		}
		if (typeof rate !== 'number' || (rate !== 0 && rate < MIN_REQUESTS_PER_SECOND))
			throw ruleBroken(field.name, RATE_RULE, value);
		return rate;
	},
};

/**
 * The request settings (transport/request-types.ts) as entries of every operation's Options
 * collection, with their rules; read once per run (readSettings). Their defaults are
 * DEFAULT_REQUEST_SETTINGS.
 */
export const requestSettings: ValueField[] = [
	{
		property: {
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrentRequests',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_WINDOW },
			default: 0,
			description: `How many items this node sends to the API at the same time. 0 (the default) is automatic: ${INITIAL_WINDOW} at first, more while the API answers quickly, fewer on 429, 503, timeouts or slower answers, at most ${MAX_WINDOW}; all executions using the same account share that number. A number above 0 is a limit of its own for this node, per account.`,
		},
		rule: integer,
	},
	{
		property: {
			displayName: 'Max Requests per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_REQUESTS_PER_SECOND, numberPrecision: 2 },
			default: 0,
			description:
				"Your account's request quota for this n8n process: all executions using the same account share it (items of different accounts each get the full quota of their own). With several queue-mode workers, divide the quota by their number and round down (10 on 4 workers: 2). Then set 2 % less (49 for 50 requests/s on one process, 24.5 on two): at exactly the quota, latency lets a request more into the API's second now and then. 0 means unknown: the node then slows down by itself when the API answers 429 (too many requests).",
		},
		rule: requestRate,
	},
	{
		property: {
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 20 },
			default: 5,
			description:
				'How often one request is retried after 429 (rate limit), 503 (unavailable) or a network error before its item fails. Operations that move money or send a message (deposit, payment, OTP, journey, image, session link) are resent only when the API cannot have acted on them: after 401 and 429, or when the connection was refused before sending.',
		},
		rule: integer,
	},
	{
		property: {
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: {
				minValue: MIN_TIMEOUT_SECONDS,
				maxValue: MAX_TIMEOUT_SECONDS,
				numberPrecision: 1,
			},
			default: 30,
			description:
				'How long to wait for one answer of the API (also for the token exchange). A read that timed out is tried once more; an operation that moves money or sends a message is never resent after a timeout.',
		},
		rule: number,
	},
];

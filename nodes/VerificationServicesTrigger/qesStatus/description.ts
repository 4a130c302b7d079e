import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { DuplicateKey } from './ping-dedup';
import { check, listEntries } from '../../shared/fields/rules';

export const DEFAULT_SECRET_HEADER = 'X-Verification-Webhook-Secret';
export const DEFAULT_DEDUP_MINUTES = 10;
/** Default limit of the Fetch Verification Result call (Fetch Time Limit option). */
export const DEFAULT_FETCH_SECONDS = 3;
/** Highest Fetch Time Limit the option accepts. */
const MAX_FETCH_SECONDS = 6;
/**
 * The provider resends a ping it did not get a 2xx for within 10 s. Whatever Fetch Time Limit says,
 * the fetch ends by this long after the ping reached the trigger, which leaves n8n's own work before
 * and after webhook() the rest of the 10 s.
 */
export const ANSWER_WITHIN_MS = 7_000;

/** The parameters of source QES Status Ping (the trigger shows them only for it). */
export const qesStatusProperties: INodeProperties[] = [
	{
		displayName:
			'The API keeps one webhook URL per account: publishing this workflow, or listening for a test event, replaces the one set elsewhere for this credential. After a test event, unpublish and publish the workflow (n8n 1.x: deactivate and activate) so pings reach its production URL.',
		name: 'oneUrlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Duplicate Key',
				name: 'dedupKey',
				type: 'options',
				options: [
					{
						name: 'Whole Body',
						value: 'body',
						description:
							'A ping is a duplicate when its JSON body is the same as an earlier one (key order and spacing do not matter)',
					},
					{
						name: 'Session ID and Status',
						value: 'sessionStatus',
						description:
							'A ping is a duplicate when it names the same session and the same status as an earlier one, whatever else differs (e.g. a timestamp); pings without both fall back to the whole body',
					},
				],
				default: 'body',
				description:
					'What two pings must share to count as the same ping for Ignore Duplicates Within',
			},
			{
				displayName: 'Fetch Time Limit (Seconds)',
				name: 'fetchTimeLimit',
				type: 'number',
				typeOptions: { minValue: 0.5, maxValue: MAX_FETCH_SECONDS, numberPrecision: 1 },
				default: DEFAULT_FETCH_SECONDS,
				description:
					'Only with Fetch Verification Result on: the longest the Get Verification call may take (token included). The provider wants its answer within 10 seconds, so the fetch also ends 7 seconds after the ping arrived, whatever this says; a ping whose fetch ran out is output with verificationError.timedOut.',
			},
			{
				displayName: 'Fetch Verification Result',
				name: 'fetchVerification',
				type: 'boolean',
				default: false,
				description:
					'Whether to call Get Verification for the session the ping names (sessionId, requestId or ID, also inside data) and output the full result under "verification". The call is limited by Fetch Time Limit so the provider gets its answer in time; if it fails or takes longer, the ping is still output, with "verificationError".',
			},
			{
				displayName: 'Ignore Duplicates Within (Minutes)',
				name: 'dedupMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1440 },
				default: DEFAULT_DEDUP_MINUTES,
				description:
					"A ping that repeats one taken this many minutes before (see Duplicate Key) is answered but starts nothing: the provider resends pings it thinks were not received. Also holds for copies arriving at the same moment; kept in this n8n process's memory (a restart forgets it; each queue-mode webhook process has its own). Not applied to test events. 0 turns this off.",
			},
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description:
					'Whether to output the request headers of the ping under "headers" (without the secret header)',
			},
			{
				displayName: 'Include Receive Time',
				name: 'includeReceiveTime',
				type: 'boolean',
				default: false,
				description:
					'Whether to output the time n8n received the ping under "receivedAt" (ISO 8601)',
			},
			{
				displayName: 'Only Statuses',
				name: 'onlyStatuses',
				type: 'string',
				default: '',
				placeholder: 'completed, rejected',
				description:
					'Start the workflow only for pings with one of these statuses (comma-separated, case-insensitive; read from "status" or "data.status" of the ping, and for a ping without one from its session\'s Get Verification result). Other pings are answered but start nothing. When Get Verification fails for now (time limit, 429, 5xx), the ping is answered 503 so the provider sends it again. Empty: every status.',
			},
			{
				displayName: 'Secret Header Name',
				name: 'headerName',
				type: 'string',
				default: DEFAULT_SECRET_HEADER,
				description:
					'Name of the header that carries the secret this trigger registers with the webhook; the provider sends it with every ping',
			},
			{
				displayName: 'Verify Secret Header',
				name: 'verifySecret',
				type: 'boolean',
				default: true,
				description:
					'Whether to answer 401 and start nothing when a ping lacks the secret header registered on activation, or carries a wrong value',
			},
		],
	},
];

export interface TriggerOptions {
	fetchVerification: boolean;
	fetchTimeLimitMs: number;
	dedupMinutes: number;
	dedupKey: DuplicateKey;
	includeHeaders: boolean;
	includeReceiveTime: boolean;
	/** Lower-cased; empty means every status. */
	onlyStatuses: string[];
	secretHeader: string;
	verifySecret: boolean;
}

/** The Options collection with defaults for what the user did not add. */
export function readTriggerOptions(raw: IDataObject | undefined): TriggerOptions {
	const options = raw ?? {};
	const minutes = Number(options.dedupMinutes ?? DEFAULT_DEDUP_MINUTES);
	const header = typeof options.headerName === 'string' ? options.headerName.trim() : '';
	const fetchSeconds = Number(options.fetchTimeLimit ?? DEFAULT_FETCH_SECONDS);
	return {
		fetchVerification: options.fetchVerification === true,
		fetchTimeLimitMs:
			Number.isFinite(fetchSeconds) && fetchSeconds > 0
				? Math.min(fetchSeconds, MAX_FETCH_SECONDS) * 1000
				: DEFAULT_FETCH_SECONDS * 1000,
		dedupMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : 0,
		dedupKey: options.dedupKey === 'sessionStatus' ? 'sessionStatus' : 'body',
		includeHeaders: options.includeHeaders === true,
		includeReceiveTime: options.includeReceiveTime === true,
		onlyStatuses: parseStatusList(options.onlyStatuses),
		secretHeader: header || DEFAULT_SECRET_HEADER,
		verifySecret: options.verifySecret !== false,
	};
}

export function parseStatusList(value: unknown): string[] {
	return listEntries(value).map((status) => status.toLowerCase());
}

/** RFC 9110 token characters: what a header name may consist of. */
export function isValidHeaderName(name: string): boolean {
	return check.headerName.test(name);
}

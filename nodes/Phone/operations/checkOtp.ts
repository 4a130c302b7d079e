import { type IDataObject, type IExecuteFunctions, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiMessage } from '../../shared/api-errors';
import { FieldError } from '../../shared/field-error';
import { parameter, text } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';
import { responseJson } from '../../shared/run-operations';
import { withoutSecret } from '../../shared/redact';
import { isVerified, isWrongCodeAnswer, OTP_INVALID, OTP_VERIFIED, otpStatus } from './otp-status';

const CODE_RULE = '3 to 10 digits';

/**
 * The code the person typed. It is a secret while it lives: masked in the UI, and no message ever
 * quotes it (the rule is named, never the value).
 */
const securityFactor = {
	...parameter(
		'securityFactor',
		{
			displayName: 'Security Factor (Code)',
			required: true,
			placeholder: '482913',
			description: `The one-time password the person received and typed in. Must be ${CODE_RULE}. Usually an expression that reads the code from a form or a Wait node's webhook, e.g. {{ $json.body.code }}.`,
		},
		{ type: 'string', typeOptions: { password: true }, default: '' },
		(value) => {
			if (typeof value !== 'string' && typeof value !== 'number') {
				throw new FieldError('securityFactor', `securityFactor must be ${CODE_RULE} (the value is not shown)`);
			}
			const code = String(value).trim();
			if (code === '') throw new FieldError('securityFactor', 'securityFactor is required and must not be blank');
			if (!/^[0-9]{3,10}$/.test(code)) {
				throw new FieldError('securityFactor', `securityFactor must be ${CODE_RULE} (the value is not shown: it is a one-time code)`);
			}
			return code;
		},
	),
	location: 'body' as const,
};

/** An unknown referenceId: the API's "not found" answer, said with the id the user passed. */
function unknownReference(ctx: IExecuteFunctions, error: unknown, referenceId: string, itemIndex: number): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const status = Number(error.httpCode);
	const body = (error as { errorResponse?: unknown }).errorResponse;
	const said = apiMessage(body);
	const notFound = status === 404 || (status >= 400 && status < 500 && /not\s*found|unknown|does not exist/i.test(said ?? ''));
	if (!notFound) return error;
	return new NodeApiError(ctx.getNode(), (body && typeof body === 'object' ? body : { message: said ?? 'not found' }) as JsonObject, {
		message: `Check OTP failed with HTTP ${status}: no OTP request with referenceId "${referenceId}" (${said ?? 'no message'})`,
		description:
			'Pass the data.referenceId that Send OTP returned for this person, with a credential of the same account and environment (Production or Sandbox).',
		httpCode: String(status),
		itemIndex,
	});
}

export const checkOtp: OperationDefinition = {
	value: 'checkOtp',
	name: 'Check OTP',
	action: 'Check a one-time password',
	description:
		'Check the code the person typed against a Send OTP request; a wrong code is an answer (otpVerified: false), not a failure',
	method: 'PATCH',
	path: '/phone-service/verification/{referenceId}',
	toolDescription:
		'Check the code a person typed (securityFactor, 3 to 10 digits) against the referenceId returned by Send OTP. Supply both. Returns otpVerified true or false: a wrong code is an answer, not an error. Repeated wrong attempts may lock the request at the provider: call it once per code the user gave, and never guess codes.',
	// Repeated wrong attempts may lock the request at the provider: never resent after a network error.
	repeatable: false,
	acceptsAnswer: isWrongCodeAnswer,
	receipt: { name: 'referenceId', of: (json) => (json.data as IDataObject | undefined)?.referenceId ?? json.referenceId },
	secretFields: ['securityFactor'],
	fields: [
		text('referenceId', {
			displayName: 'Reference ID',
			location: 'path',
			required: true,
			default: '={{ $json.data.referenceId }}',
			placeholder: 'e.g. 9f86d081884c7d659a2feaa0c55ad015',
			description:
				"The data.referenceId that Send OTP returned. The default reads it from the previous node's item; after a Wait or Form node use e.g. {{ $('Send OTP').item.json.data.referenceId }}.",
			normalize: (value) => value.trim(),
		}),
		securityFactor,
	],
	run: async ({ ctx, itemIndex, values, send }, request) => {
		const code = values.securityFactor as string;
		let response;
		try {
			response = await send(request);
		} catch (error) {
			throw unknownReference(ctx, withoutSecret(error, code), values.referenceId as string, itemIndex);
		}
		const status = otpStatus(response.body);
		if (!status) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Check OTP got HTTP ${response.statusCode} without a status code (expected data.status.code, e.g. ${OTP_VERIFIED} or ${OTP_INVALID})`,
				{
					itemIndex,
					description:
						'The answer is not the shape of a code check, so it is neither "verified" nor "wrong code". Check the base URL of the credential.',
				},
			);
		}
		return [
			{
				json: {
					...responseJson(response.body),
					otpVerified: isVerified(status),
					otpStatusCode: status.code,
					otpStatusDescription: status.description,
				},
			},
		];
	},
};

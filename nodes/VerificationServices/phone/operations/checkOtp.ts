import { valueAt } from '../../../shared/responses/envelope';
import { FieldError } from '../../../shared/fields/field-error';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { text } from '../../../shared/fields/rules';
import { isVerified, isWrongCodeAnswer, otpStatus } from '../otp-status';

const CODE_RULE = '3 to 10 digits';

/** The code the person typed: a secret while it lives, so no message ever quotes it (only the rule). */
const oneTimeCode: Rule = {
	hint: CODE_RULE,
	toWire: (value, field) => {
		const code =
			typeof value === 'string' || typeof value === 'number' ? String(value).trim() : undefined;
		if (code === '')
			throw new FieldError(field.name, `${field.name} is required and must not be blank`);
		if (code === undefined || !/^[0-9]{3,10}$/.test(code)) {
			throw new FieldError(
				field.name,
				`${field.name} must be ${CODE_RULE} (the value is not shown: it is a one-time code)`,
			);
		}
		return code;
	},
};

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
	// Neither "verified" nor "wrong code" can be read from an answer without a code or a state.
	expects: { oneOf: ['status.code', 'state'] },
	hints: {
		notFound:
			'No OTP request with referenceId "{referenceId}": pass the referenceId that Send OTP returned for this person, with a credential of the same account and environment (Production or Sandbox).',
	},
	receipt: 'referenceId',
	fields: [
		{
			property: {
				displayName: 'Reference ID',
				name: 'referenceId',
				type: 'string',
				default: '={{ $json.referenceId }}',
				required: true,
				placeholder: 'e.g. 9f86d081884c7d659a2feaa0c55ad015',
				description:
					"The referenceId that Send OTP returned (its output has it at the top level, whichever the API's answer shape). The default reads it from the previous node's item; after a Wait or Form node, point the expression at the Send OTP node's item instead.",
			},
			rule: text({ normalize: (value) => value.trim() }),
			location: 'path',
		},
		{
			property: {
				displayName: 'Security Factor (Code)',
				name: 'securityFactor',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				required: true,
				placeholder: '482913',
				description:
					"The one-time password the person received and typed in: usually an expression that reads the code from a form or a Wait node's webhook",
			},
			rule: oneTimeCode,
			secret: true,
		},
	],
	// Beside the answer: the verdict to branch on, and the referenceId checked (older answers do not repeat it).
	toItems: (response, { values }) => {
		const status = otpStatus(response.body);
		return [
			{
				json: {
					...responseJson(response.body),
					referenceId: (valueAt(response.body, 'referenceId') ?? values.referenceId) as string,
					otpVerified: isVerified(status),
					otpStatusCode: status.code,
					otpStatusDescription: status.description,
				},
			},
		];
	},
};

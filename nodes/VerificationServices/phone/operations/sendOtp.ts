import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/responses/envelope';
import { ruleBroken } from '../../../shared/fields/field-error';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { boolean, check, choice, text } from '../../../shared/fields/rules';

const PHONE_RULE = '6 to 20 digits (international format without +, e.g. 436501234567)';
/** What "Clean Phone Number" removes before the digits are checked. */
const PHONE_FORMATTING = /[\s+\-()./]/g;

/** Digits only; with Options > Clean Phone Number (read before the fields) formatting is removed first. */
const phoneDigits: Rule = {
	hint: PHONE_RULE,
	toWire: (value, field) => {
		const given = String(value);
		const clean = field.values.cleanPhoneNumber !== false;
		const digits = clean ? given.replace(PHONE_FORMATTING, '') : given.trim();
		if (!/^[0-9]{6,20}$/.test(digits))
			throw ruleBroken(
				field.name,
				clean ? `${PHONE_RULE} once formatting is removed` : PHONE_RULE,
				value,
			);
		return digits;
	},
};

/** en-US, de-at, EN -> en-US, de-AT, en: language lower case, region upper case. */
function normalizeLanguage(value: string): string {
	const [language, ...rest] = value.trim().replace(/_/g, '-').split('-');
	return [
		language.toLowerCase(),
		...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part)),
	].join('-');
}

export const sendOtp: OperationDefinition = {
	value: 'sendOtp',
	name: 'Send OTP',
	action: 'Send a one-time password',
	description:
		'Send a one-time password by SMS or e-mail; returns the referenceId of the request for Check OTP',
	method: 'POST',
	path: '/phone-service/verification',
	// Sends a message: a network error after sending is never retried (the SMS may have gone out).
	repeatable: false,
	effect: { does: 'sends a message' },
	toolDescription:
		'sends a one-time password to a real person by SMS (phoneNumber: digits in international format, for example 436501234567) or e-mail (email), and returns the referenceId needed to check the code. Every call sends a new message that may be billed: call it once, only when the user asks to verify that number or address, and never to retry without asking the user.',
	receipt: 'referenceId',
	// Without a referenceId the code can never be checked: an error that says the message may have gone out.
	expects: { oneOf: ['referenceId'] },
	fields: [
		{
			property: {
				displayName: 'Method',
				name: 'method',
				type: 'options',
				options: [
					{ name: 'SMS', value: 'sms' },
					{ name: 'Email', value: 'email' },
				],
				default: 'sms',
				required: true,
				description: 'How the one-time password is delivered',
			},
			rule: choice,
		},
		{
			property: {
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				required: true,
				placeholder: '436501234567',
				description:
					'Recipient in international format. With Options > Clean Phone Number (on by default), +, spaces, dashes, dots, slashes and parentheses are removed first, so "+43 (650) 123-4567" is sent as 436501234567.',
				displayOptions: { show: { method: ['sms'] } },
			},
			rule: phoneDigits,
		},
		{
			property: {
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'name@email.com',
				description: 'Recipient e-mail address',
				displayOptions: { show: { method: ['email'] } },
			},
			rule: text({ normalize: (value) => value.trim(), checks: [check.email] }),
		},
		{
			property: {
				displayName: 'Security Factor (Custom OTP)',
				name: 'securityFactor',
				type: 'string',
				default: '',
				placeholder: '482913',
				description:
					'Your own one-time password. Leave out to let the provider generate a 6-digit code.',
			},
			rule: text({
				normalize: (value) => value.trim(),
				checks: [check.pattern(/^[0-9]{3,10}$/, '3 to 10 digits')],
			}),
			additional: true,
			secret: true,
		},
		{
			property: {
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				placeholder: 'signup-4711',
				description: 'Your own ID for this verification, returned with it',
			},
			rule: text({ checks: [check.maxLength(100)] }),
			additional: true,
		},
		{
			property: {
				displayName: 'Delivery Language',
				name: 'voiceLang',
				type: 'string',
				default: '',
				placeholder: 'en-US',
				description:
					'Language of the message, e.g. en-US or de-AT (provider default: English). Sent as messageTemplate.voiceLang, only when set.',
			},
			rule: text({
				normalize: normalizeLanguage,
				checks: [
					check.pattern(
						/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
						'a language code such as en-US or de-AT',
					),
				],
			}),
			additional: true,
			nest: 'messageTemplate',
		},
	],
	options: [
		{
			property: {
				displayName: 'Clean Phone Number',
				name: 'cleanPhoneNumber',
				type: 'boolean',
				default: true,
				description:
					'Whether to remove +, spaces, dashes, dots, slashes and parentheses from the phone number before checking that it is 6 to 20 digits. Off: the number must already be digits only.',
			},
			rule: boolean(),
		},
	],
	// referenceId (for Check OTP) and recipient at the top level in every generation: the newest nests them in data.
	toItems: (response) => {
		const recipient = valueAt(response.body, 'recipient') as IDataObject | undefined;
		const json = {
			...responseJson(response.body),
			referenceId: valueAt(response.body, 'referenceId') as string,
		};
		return [{ json: recipient === undefined ? json : { ...json, recipient } }];
	},
};

import type { IDataObject } from 'n8n-workflow';

import { ruleBroken } from '../../shared/field-error';
import { choice, rule, text } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';

const PHONE_RULE = '6 to 20 digits (international format without +, e.g. 436501234567)';
/** What "Clean Phone Number" removes before the digits are checked. */
const PHONE_FORMATTING = /[\s+\-()./]/g;

/** en-US, de-at, EN -> en-US, de-AT, en: language lower case, region upper case. */
function normalizeLanguage(value: string): string {
	const [language, ...rest] = value.trim().replace(/_/g, '-').split('-');
	return [language.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part))].join('-');
}

export const sendOtp: OperationDefinition = {
	value: 'sendOtp',
	name: 'Send OTP',
	action: 'Send a one-time password',
	description: 'Send a one-time password by SMS or e-mail; returns the referenceId of the request',
	method: 'POST',
	path: '/phone-service/verification',
	// Sends a message: a network error after sending is never retried (the SMS may have gone out).
	repeatable: false,
	toolDescription:
		'SENDS A MESSAGE: sends a one-time password to a real person by SMS (phoneNumber: digits in international format, for example 436501234567) or e-mail (email), and returns the referenceId needed to check the code. Every call sends a new message that may be billed: call it once, only when the user asks to verify that number or address, and never to retry without asking the user.',
	receipt: { name: 'referenceId', of: (json) => json.referenceId },
	secretFields: ['securityFactor'],
	fields: [
		choice('method', {
			displayName: 'Method',
			required: true,
			default: 'sms',
			description: 'How the one-time password is delivered',
			options: [
				{ name: 'SMS', value: 'sms' },
				{ name: 'Email', value: 'email' },
			],
		}),
		text('phoneNumber', {
			displayName: 'Phone Number',
			required: true,
			showWhen: { method: ['sms'] },
			placeholder: '436501234567',
			description: `Recipient in international format. Must be ${PHONE_RULE}. With Options > Clean Phone Number (on by default), +, spaces, dashes, dots, slashes and parentheses are removed first, so "+43 (650) 123-4567" is sent as 436501234567.`,
		}),
		text('email', {
			displayName: 'Email',
			required: true,
			showWhen: { method: ['email'] },
			placeholder: 'name@email.com',
			description: 'Recipient e-mail address.',
			normalize: (value) => value.trim(),
			rules: [rule.email],
		}),
		text('securityFactor', {
			displayName: 'Security Factor (Custom OTP)',
			additional: true,
			placeholder: '482913',
			description: 'Your own one-time password. Leave out to let the provider generate a 6-digit code.',
			normalize: (value) => value.trim(),
			rules: [rule.pattern(/^[0-9]{3,10}$/, '3 to 10 digits')],
		}),
		text('externalId', {
			displayName: 'External ID',
			additional: true,
			placeholder: 'signup-4711',
			description: 'Your own ID for this verification, returned with it.',
			rules: [rule.maxLength(100)],
		}),
		text('voiceLang', {
			displayName: 'Delivery Language',
			additional: true,
			location: 'none',
			placeholder: 'en-US',
			description:
				'Language of the message, e.g. en-US or de-AT (provider default: English). Sent as messageTemplate.voiceLang, only when set.',
			normalize: normalizeLanguage,
			rules: [rule.pattern(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language code such as en-US or de-AT')],
		}),
	],
	options: [
		{
			displayName: 'Clean Phone Number',
			name: 'cleanPhoneNumber',
			type: 'boolean',
			default: true,
			description:
				'Whether to remove +, spaces, dashes, dots, slashes and parentheses from the phone number before checking that it is 6 to 20 digits. Off: the number must already be digits only.',
		},
	],
	validate: (values, { ctx, itemIndex }) => {
		if (values.phoneNumber === undefined) return;
		const given = values.phoneNumber as string;
		const clean = ctx.getNodeParameter('options.cleanPhoneNumber', itemIndex, true) !== false;
		const digits = clean ? given.replace(PHONE_FORMATTING, '') : given.trim();
		if (!/^[0-9]{6,20}$/.test(digits)) {
			throw ruleBroken('phoneNumber', clean ? `${PHONE_RULE} once formatting is removed` : PHONE_RULE, given);
		}
		values.phoneNumber = digits;
	},
	shapeBody: (body, values): IDataObject =>
		values.voiceLang !== undefined ? { ...body, messageTemplate: { voiceLang: values.voiceLang as string } } : body,
};

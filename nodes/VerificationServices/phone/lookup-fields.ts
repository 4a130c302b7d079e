import type { ValueField } from '../../shared/operation/operation-types';
import { internationalNumber, phoneDigits } from '../../shared/fields/phone-number';
import { check, choice, text } from '../../shared/fields/rules';
import { ipAddress, ipv4 } from './ip-address';

/** Fields the phone lookups share with the same meaning; where the API's rule differs, so does the field's. */

/** The number as + and digits (E.164), for Get Phone Status and Get Risk Score. */
export const internationalPhoneNumber: ValueField = {
	property: {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+436501234567',
		description: 'The number with its country code',
	},
	rule: internationalNumber,
};

/** The number as digits only with the country code, `min` to `max` of them. */
export const phoneNumberDigits = (min: number, max: number): ValueField => ({
	property: {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: '436501234567',
		description: 'The number with its country code',
	},
	rule: phoneDigits(min, max),
});

export const accountLifecycleEvent: ValueField = {
	property: {
		displayName: 'Account Lifecycle Event',
		name: 'accountLifecycleEvent',
		type: 'options',
		options: [
			{ name: 'Create', value: 'create', description: 'The person opens an account' },
			{ name: 'Delete', value: 'delete', description: 'The person closes the account' },
			{ name: 'Sign-In', value: 'sign-in', description: 'The person signs in' },
			{ name: 'Transact', value: 'transact', description: 'The person makes a transaction' },
			{ name: 'Update', value: 'update', description: 'The person changes account details' },
		],
		default: 'transact',
		description:
			'What the person is doing while the number is looked up; the provider weighs the risk by it',
	},
	rule: choice,
};

export const externalId: ValueField = {
	property: {
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		placeholder: 'signup-4711',
		description: 'Your own ID for this lookup, returned with it',
	},
	rule: text(),
	additional: true,
};

/** An IPv4 address: the provider's client sends no other form, and the API refuses some. */
export const originatingIpv4: ValueField = {
	property: {
		displayName: 'Originating IP',
		name: 'originatingIp',
		type: 'string',
		default: '',
		placeholder: '192.0.2.10',
		description: "The end user's IP address, e.g. from the sign-up request",
	},
	rule: text({ normalize: (value) => value.trim(), checks: [ipv4] }),
	additional: true,
};

export const originatingIp: ValueField = {
	...originatingIpv4,
	rule: text({ normalize: (value) => value.trim(), checks: [ipAddress] }),
};

export const emailAddress: ValueField = {
	property: {
		displayName: 'Email Address',
		name: 'emailAddress',
		type: 'string',
		default: '',
		placeholder: 'name@email.com',
		description:
			"The person's e-mail address, weighed into the risk; case-sensitive, sent as typed",
	},
	rule: text({ normalize: (value) => value.trim(), checks: [check.email] }),
	additional: true,
};

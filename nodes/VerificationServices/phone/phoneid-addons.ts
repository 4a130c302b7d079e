import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../shared/responses/envelope';
import { ruleBroken } from '../../shared/fields/field-error';
import type { ItemContext, Rule, ValueField } from '../../shared/operation/operation-types';
import { countryCode, postalCode } from '../../shared/fields/person-rules';
import { check, choice, integer, text } from '../../shared/fields/rules';
import { warnOnce } from './phone-lookup';

/**
 * Get Phone ID's add-ons: one multi-select whose choices each become a member of `addons` (a
 * member's presence turns its add-on on), each add-on's own fields shown only while it is chosen
 * and sent inside `addons.<addon>`, and the consent that some add-ons need.
 */

/** The consent method number the provider's own client sends (the docs' example shows 1, meaning undocumented). */
const CONSENT_METHOD = 4;

/** The chosen add-ons as `addons`: `{ simSwap: {}, ageVerify: {} }`; the add-ons' fields fill them in. */
const addonSet: Rule = {
	toWire: (value, field) => {
		const offered = (field.property.options ?? []).map((o) =>
			String((o as { value: unknown }).value),
		);
		const chosen = Array.isArray(value)
			? value.map(String)
			: typeof value === 'string'
				? [value.trim()]
				: undefined;
		if (!chosen || chosen.some((c) => !offered.includes(c)))
			throw ruleBroken(field.name, `a list of add-ons from ${offered.join(', ')}`, value);
		return chosen.length ? Object.fromEntries(chosen.map((c) => [c, {}])) : undefined;
	},
};

/** Refused unless confirmed; sent as the provider's consent record, stamped now. */
const consentGiven: Rule = {
	toWire: (value, field) => {
		if (value !== true && value !== 'true') {
			throw ruleBroken(
				field.name,
				"on: the add-ons Age Verification and Contact look up personal data and need the person's consent",
				value,
			);
		}
		return { method: CONSENT_METHOD, timestamp: new Date().toISOString() };
	},
};

const trimmed = text({ normalize: (value) => value.trim() });

export const addonFields: ValueField[] = [
	{
		property: {
			displayName: 'Add-Ons',
			name: 'addons',
			type: 'multiOptions',
			options: [
				{
					name: 'Age Verification',
					value: 'ageVerify',
					description:
						'Whether the person is at least a given age (US and UK numbers; needs Contact Match and consent)',
				},
				{
					name: 'Breached Data',
					value: 'breachedData',
					description: 'Whether the number appears in known data breaches',
				},
				{
					name: 'Call Forward Detection',
					value: 'callForwardDetection',
					description: 'Whether calls to the number are forwarded',
				},
				{
					name: 'Contact',
					value: 'contact',
					description: "The subscriber's name and address (needs consent)",
				},
				{
					name: 'Contact Match',
					value: 'contactMatch',
					description: 'How well a name and address match the subscriber',
				},
				{
					name: 'Contact Plus',
					value: 'contactPlus',
					description: 'Contact data matched against a billing postal code',
				},
				{
					name: 'Number Deactivation',
					value: 'numberDeactivation',
					description: 'Whether the number was deactivated or recycled',
				},
				{
					name: 'Porting History',
					value: 'portingHistory',
					description: 'Carrier changes in the last days',
				},
				{
					name: 'Porting Status',
					value: 'portingStatus',
					description: 'Whether the number was ported to another carrier',
				},
				{
					name: 'SIM Swap',
					value: 'simSwap',
					description: 'Whether the SIM card was recently swapped',
				},
				{
					name: 'Subscriber Status',
					value: 'subscriberStatus',
					description: 'Account type and status of the subscriber',
				},
			],
			default: [],
			description:
				'Extra lookups beside the basic phone ID; each is billed separately and must be enabled for your account',
		},
		rule: addonSet,
	},
	{
		property: {
			displayName: 'Consent Given',
			name: 'consent',
			type: 'boolean',
			default: false,
			description:
				'Whether the person consented to this lookup of their personal data. Required by Age Verification and Contact; sent as consent {method: 4, timestamp: now}.',
			displayOptions: { show: { addons: ['ageVerify', 'contact'] } },
		},
		rule: consentGiven,
	},
	{
		property: {
			displayName: 'Age Threshold',
			name: 'ageThreshold',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 120 },
			default: 18,
			required: true,
			description: 'The age the person must have reached',
			displayOptions: { show: { addons: ['ageVerify'] } },
		},
		rule: integer,
		nest: 'addons.ageVerify',
	},
	{
		property: {
			displayName: 'Contact Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'name@email.com',
			description:
				"The person's e-mail address, to look the contact up by it too; sent only when set",
			displayOptions: { show: { addons: ['contact'] } },
		},
		rule: text({ normalize: (value) => value.trim(), checks: [check.email] }),
		nest: 'addons.contact',
	},
	{
		property: {
			displayName: 'First Name',
			name: 'firstName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Erika',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: trimmed,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Last Name',
			name: 'lastName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Mustermann',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: trimmed,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Address',
			name: 'address',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Hauptstraße 5',
			description: 'Street and house number',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: trimmed,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'City',
			name: 'city',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Wien',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: trimmed,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Postal Code',
			name: 'postalCode',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1010',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: postalCode,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'State',
			name: 'state',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Wien',
			description: 'State, province or region',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: trimmed,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Country',
			name: 'country',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'AT',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: countryCode,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Input Used',
			name: 'inputUsed',
			type: 'options',
			options: [
				{ name: 'Phone Number', value: 'phoneNumber' },
				{ name: 'Phone Number and Email', value: 'phoneNumber and email' },
			],
			default: 'phoneNumber',
			description: 'What the person gave you to be matched by',
			displayOptions: { show: { addons: ['contactMatch'] } },
		},
		rule: choice,
		nest: 'addons.contactMatch',
	},
	{
		property: {
			displayName: 'Billing Postal Code',
			name: 'billingPostalCode',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1010',
			displayOptions: { show: { addons: ['contactPlus'] } },
		},
		rule: postalCode,
		nest: 'addons.contactPlus',
	},
	{
		property: {
			displayName: 'Past Days',
			name: 'pastXDays',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3650 },
			default: 90,
			required: true,
			description: 'How many days back carrier changes are looked up',
			displayOptions: { show: { addons: ['portingHistory'] } },
		},
		rule: integer,
		nest: 'addons.portingHistory',
	},
];

/** What the provider's add-on status codes mean. */
const ADDON_RESULTS: Record<number, string> = {
	2800: 'completed',
	2805: 'noData',
	2806: 'notEnabled',
};

/**
 * `addonResults`, added beside the response: for each chosen add-on, its status code and what it
 * means (completed, noData, notEnabled; notReturned when the answer lacks it). The add-on's own
 * result stays where the API put it (`addons.<addon>` or `<addon>`). An add-on not enabled for the
 * account is a warning, never a failed item.
 */
export function addonResults(body: unknown, { ctx, values }: ItemContext): IDataObject {
	const results: IDataObject = {};
	for (const addon of Object.keys((values.addons as IDataObject | undefined) ?? {})) {
		const status = valueAt(body, `addons.${addon}.status`) ?? valueAt(body, `${addon}.status`);
		const code = valueAt(status, 'code');
		const statusCode = code === undefined || code === null || code === '' ? null : Number(code);
		const description = valueAt(status, 'description');
		const result = statusCode === null ? 'notReturned' : (ADDON_RESULTS[statusCode] ?? 'unknown');
		results[addon] = {
			result,
			statusCode,
			statusDescription: typeof description === 'string' ? description : null,
		};
		if (result === 'notEnabled') {
			warnOnce(
				ctx,
				`Get Phone ID: the add-on ${addon} is not enabled for your account (status 2806): its result is missing; ask the provider to enable it`,
			);
		}
	}
	return results;
}

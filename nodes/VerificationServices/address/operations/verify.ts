import { valueAt } from '../../../shared/responses/envelope';
import { FieldError } from '../../../shared/fields/field-error';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { birthDate, countryCode, postalCode } from '../../../shared/fields/person-rules';
import { choice, text } from '../../../shared/fields/rules';
import { addressVerification } from '../address-outcome';

/** Austria (AT or AUT): its address data may be queried only for a stated purpose. */
const isAustria = (country: unknown) => country === 'AT' || country === 'AUT';

/**
 * The compliance reason: required for Austria and sent there as `compliance: {acceptedTerms: true,
 * reason}`; for any other country it is not sent at all.
 */
const complianceReason: Rule = {
	hint: 'given when the country is AT (Austria)',
	toWire: (value, field) => {
		const reason = choice.toWire(value, field);
		return isAustria(field.values.country) ? { acceptedTerms: true, reason } : undefined;
	},
	whenEmpty: (field) => {
		if (isAustria(field.values.country)) {
			throw new FieldError(
				field.name,
				`${field.name} is required when the country is AT: Austrian address data may only be queried for a stated purpose`,
			);
		}
		return undefined;
	},
};

const trimmed = text({ normalize: (value) => value.trim() });

export const verify: OperationDefinition = {
	value: 'verify',
	name: 'Verify Address',
	action: 'Verify an address',
	description:
		"Check that a person lives at an address: the provider's match quality, score and corrected address, and an outcome to branch on. Each check is billed by the provider.",
	method: 'POST',
	path: '/address/verify',
	repeatable: true,
	toolDescription:
		'Check that a person (firstname, lastname, optional dob as yyyy/mm/dd) lives at an address (country as an ISO code such as DE, street, number, zip, city). For country AT a compliance reason is required (onboarding, fraud_prevention, regulatory, account_recovery or other). Returns addressVerification.outcome (verified, review or notVerified) with matchQuality and score, and the corrected address. Each call is billed by the provider: call it once per address the user gives.',
	// No verdict without the provider's result or match quality: `{}` or HTML never becomes "review".
	expects: { oneOf: ['globalResult.overall', 'matchQuality'] },
	fields: [
		{
			property: {
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'AT',
				description: 'Country of the address',
			},
			rule: countryCode,
		},
		{
			property: {
				displayName:
					'A compliance reason is required for Austrian addresses: add it under Additional Fields',
				name: 'austriaNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { country: ['AT', 'at', 'AUT', 'aut'] } },
			},
		},
		{
			property: {
				displayName: 'Street',
				name: 'street',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Hauptstraße',
			},
			rule: trimmed,
			nest: 'address',
		},
		{
			property: {
				displayName: 'House Number',
				name: 'number',
				type: 'string',
				default: '',
				required: true,
				placeholder: '5a',
				description: 'House or building number',
			},
			rule: trimmed,
			nest: 'address',
		},
		{
			property: {
				displayName: 'ZIP Code',
				name: 'zip',
				type: 'string',
				default: '',
				required: true,
				placeholder: '1010',
			},
			rule: postalCode,
			nest: 'address',
		},
		{
			property: {
				displayName: 'City',
				name: 'city',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Wien',
			},
			rule: trimmed,
			nest: 'address',
		},
		{
			property: {
				displayName: 'First Name',
				name: 'firstname',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Erika',
			},
			rule: trimmed,
			nest: 'identity',
		},
		{
			property: {
				displayName: 'Last Name',
				name: 'lastname',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Mustermann',
			},
			rule: trimmed,
			nest: 'identity',
		},
		{
			property: {
				displayName: 'Province',
				name: 'province',
				type: 'string',
				default: '',
				placeholder: 'Wien',
				description: 'Province, state or region; sent only when set',
			},
			rule: trimmed,
			nest: 'address',
			additional: true,
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'dob',
				type: 'string',
				default: '',
				placeholder: '1964/08/12',
				description: 'Narrows the match to this person; sent only when set',
			},
			rule: birthDate,
			nest: 'identity',
			additional: true,
		},
		{
			property: {
				displayName: 'Compliance Reason',
				name: 'reason',
				type: 'options',
				options: [
					{ name: 'Account Recovery', value: 'account_recovery' },
					{ name: 'Fraud Prevention', value: 'fraud_prevention' },
					{ name: 'Onboarding', value: 'onboarding' },
					{ name: 'Other', value: 'other' },
					{ name: 'Regulatory', value: 'regulatory' },
				],
				default: 'onboarding',
				description:
					"Why the address is checked. Required for Austrian addresses (country AT), where choosing it confirms that you accept the provider's terms for Austrian data (sent as compliance: {acceptedTerms: true, reason}); not sent for other countries.",
			},
			rule: complianceReason,
			sendAs: 'compliance',
			additional: true,
		},
	],
	// The derived verdict and the address it settled on (older generation at the top, newer in data).
	simplify: [
		'status',
		'addressVerification',
		'finalAddress',
		'addressStatus',
		'extendedMessage',
		'data.finalAddress',
		'data.addressStatus',
		'data.extendedMessage',
	],
	toolSummary: (json) => ({
		addressVerification: json.addressVerification,
		finalAddress: valueAt(json, 'finalAddress') ?? null,
		addressStatus: valueAt(json, 'addressStatus') ?? null,
		extendedMessage: valueAt(json, 'extendedMessage') ?? null,
	}),
	toItems: (response) => [
		{
			json: {
				...responseJson(response.body),
				addressVerification: addressVerification(response.body),
			},
		},
	],
};

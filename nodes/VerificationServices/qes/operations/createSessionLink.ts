import { valueAt } from '../../../shared/responses/envelope';
import { FieldError, quote } from '../../../shared/fields/field-error';
import { entriesOf } from '../../../shared/fields/fixed-collection';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { check, text } from '../../../shared/fields/rules';

/** The provider fills these from the identification; they are not n8n expressions and reach the API as typed. */
const FILL_FORM_PLACEHOLDERS = [
	'${identification.firstName}',
	'${identification.lastName}',
	'${identification.email}',
	'${identification.phoneNumber}',
	'${identification.birthDate}',
	'${identification.gender}',
	'${identification.personalNumber}',
	'${identification.documentDetails.number}',
];

const DEFAULT_ACTOR = 'userToIdentify';

/** What "+49 151 1234 5678" loses before the E.164 check: spaces, dashes, dots, slashes, parentheses. */
const PHONE_FORMATTING = /[\s\-()./]/g;

function nonBlank(name: string, position: number, member: string, value: unknown): string {
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw new FieldError(
			name,
			`${name} entry ${position + 1}: ${member} must be a non-blank text, got ${quote(value ?? '')}`,
		);
	}
	const text = String(value).trim();
	if (text === '')
		throw new FieldError(name, `${name} entry ${position + 1}: ${member} must not be blank`);
	return text;
}

/** [{ fieldId, actorId }]: who signs which signature field. */
const signForms: Rule = {
	toWire: (value, { name }) => {
		const list = entriesOf(name, value, 'form').map((entry, position) => ({
			fieldId: nonBlank(name, position, 'fieldId', entry?.fieldId),
			actorId:
				entry?.actorId === undefined || entry.actorId === ''
					? DEFAULT_ACTOR
					: nonBlank(name, position, 'actorId', entry.actorId),
		}));
		return list.length ? list : undefined;
	},
};

/** [{ fieldId, value }]: values go out exactly as typed (placeholders such as ${identification.firstName} included). */
const fillForm: Rule = {
	toWire: (value, { name }) => {
		const list = entriesOf(name, value, 'field').map((entry, position) => {
			const fieldId = nonBlank(name, position, 'fieldId', entry?.fieldId);
			const given = entry?.value ?? '';
			if (typeof given !== 'string' && typeof given !== 'number' && typeof given !== 'boolean') {
				throw new FieldError(
					name,
					`${name} entry ${position + 1}: the value of "${fieldId}" must be a text, got ${quote(given)}`,
				);
			}
			return { fieldId, value: String(given) };
		});
		return list.length ? list : undefined;
	},
};

export const createSessionLink: OperationDefinition = {
	value: 'createSessionLink',
	name: 'Create Session Link',
	action: 'Create a QES onboarding session link',
	description:
		'Start a QES onboarding session: returns the link the person opens to identify and sign the document, its requestId and expiry',
	method: 'POST',
	path: '/onboarding/createSessionLink',
	effect: { does: 'starts a signing session for a real person' },
	toolDescription:
		'creates a QES onboarding link for email and phoneNumber (E.164, with +), with redirectUrl and docUrl (a public https PDF with a signature field). Returns url, requestId and expiresAfter; the link is usually mailed to the person next. Each call starts a new, possibly billed session: call it once, only when the user asks to onboard that person.',
	// Each call starts a new session (and the next node usually mails its link): never resent blindly.
	repeatable: false,
	receipt: 'requestId',
	// No session without its link and id.
	expects: { allOf: ['url', 'requestId'] },
	fields: [
		{
			property: {
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'name@email.com',
				description: 'E-mail address of the person to identify',
			},
			rule: text({ normalize: (value) => value.trim(), checks: [check.email] }),
		},
		{
			property: {
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				required: true,
				placeholder: '+4915112345678',
				description:
					'Mobile number of the person in international (E.164) format. Spaces, dashes, dots, slashes and parentheses are removed first, so "+49 (151) 1234-5678" is sent as +4915112345678.',
			},
			rule: text({
				normalize: (value) => value.replace(PHONE_FORMATTING, ''),
				checks: [
					check.pattern(
						/^\+[1-9][0-9]{6,14}$/,
						'in E.164 format: + and 7 to 15 digits, the first not 0, e.g. +4915112345678',
					),
				],
			}),
		},
		{
			property: {
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://example.com/onboarding/done',
				description: 'Where the person is sent after the session',
			},
			rule: text({ normalize: (value) => value.trim(), checks: [check.httpUrl] }),
		},
		{
			property: {
				displayName: 'Document URL',
				name: 'docUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://example.com/contracts/contract.pdf',
				description:
					'The PDF to sign. It must be public (reachable without login or auth headers) and carry at least one signature field.',
			},
			rule: text({ normalize: (value) => value.trim(), checks: [check.httpsUrl] }),
		},
		{
			property: {
				displayName: 'Sign Forms',
				name: 'signForms',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Signature Field',
				description:
					'Signature fields of the PDF and who signs them (sent as signForms: [{fieldId, actorId}])',
				options: [
					{
						displayName: 'Signature Field',
						name: 'form',
						values: [
							{
								displayName: 'Field ID',
								name: 'fieldId',
								type: 'string',
								default: '',
								placeholder: 'signature1',
								description: 'Name of the signature field in the PDF',
							},
							{
								displayName: 'Actor ID',
								name: 'actorId',
								type: 'string',
								default: DEFAULT_ACTOR,
								description: `Who signs the field; ${DEFAULT_ACTOR} is the person being identified`,
							},
						],
					},
				],
			},
			rule: signForms,
		},
		{
			property: {
				displayName: 'Fill Form',
				name: 'fillForm',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Form Field',
				description:
					'Form fields of the PDF to fill in before signing (sent as fillForm: [{fieldId, value}])',
				options: [
					{
						displayName: 'Form Field',
						name: 'field',
						values: [
							{
								displayName: 'Field ID',
								name: 'fieldId',
								type: 'string',
								default: '',
								placeholder: 'firstName',
								description: 'Name of the form field in the PDF',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								placeholder: '${identification.firstName}',
								description: `Sent exactly as typed. The provider replaces these placeholders with the identified person's data: ${FILL_FORM_PLACEHOLDERS.join(', ')}.`,
							},
						],
					},
				],
			},
			rule: fillForm,
		},
	],
	toItems: (response) => {
		const json = responseJson(response.body);
		// Top-level copies for the next node (e.g. the e-mail with the link); the response stays whole.
		const [url, requestId] = [valueAt(json, 'url'), valueAt(json, 'requestId')] as string[];
		return [
			{
				json: {
					...json,
					url,
					requestId,
					expiresAfter: (valueAt(json, 'expiresAfter') ?? null) as string,
				},
			},
		];
	},
};

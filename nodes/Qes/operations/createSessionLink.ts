import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { FieldError, quote } from '../../shared/field-error';
import { parameter, rule, text, type TextRule } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';
import { responseJson } from '../../shared/run-operations';

/** The provider fills these from the identification; they are not n8n expressions and reach the API as typed. */
export const FILL_FORM_PLACEHOLDERS = [
	'${identification.firstName}',
	'${identification.lastName}',
	'${identification.email}',
	'${identification.phoneNumber}',
	'${identification.birthDate}',
	'${identification.gender}',
	'${identification.personalNumber}',
	'${identification.documentDetails.number}',
];

export const DEFAULT_ACTOR = 'userToIdentify';

/** What "+49 151 1234 5678" loses before the E.164 check: spaces, dashes, dots, slashes, parentheses. */
const PHONE_FORMATTING = /[\s\-()./]/g;

const httpsUrl: TextRule = {
	hint: 'an https:// URL',
	test: (v) => {
		try {
			const url = new URL(v);
			return url.protocol === 'https:' && url.hostname !== '';
		} catch {
			return false;
		}
	},
};

interface Entry {
	fieldId?: unknown;
	actorId?: unknown;
	value?: unknown;
}

/** The entries of a fixed collection (`{ <group>: [...] }`), or of an array given by an expression. */
function entriesOf(name: string, value: unknown, group: string): Entry[] {
	if (Array.isArray(value)) return value as Entry[];
	if (value === null || typeof value !== 'object') throw new FieldError(name, `${name} must be a list of entries, got ${quote(value)}`);
	const entries = (value as IDataObject)[group];
	if (entries === undefined || entries === null) return [];
	if (!Array.isArray(entries)) throw new FieldError(name, `${name} must be a list of entries, got ${quote(entries)}`);
	return entries as Entry[];
}

function nonBlank(name: string, position: number, member: string, value: unknown): string {
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw new FieldError(name, `${name} entry ${position + 1}: ${member} must be a non-blank text, got ${quote(value ?? '')}`);
	}
	const text = String(value).trim();
	if (text === '') throw new FieldError(name, `${name} entry ${position + 1}: ${member} must not be blank`);
	return text;
}

export function signFormsToWire(value: unknown): Array<{ fieldId: string; actorId: string }> | undefined {
	const list = entriesOf('signForms', value, 'form').map((entry, position) => ({
		fieldId: nonBlank('signForms', position, 'fieldId', entry?.fieldId),
		actorId:
			entry?.actorId === undefined || entry.actorId === '' ? DEFAULT_ACTOR : nonBlank('signForms', position, 'actorId', entry.actorId),
	}));
	return list.length ? list : undefined;
}

/** Values go out exactly as typed (placeholders such as ${identification.firstName} included). */
export function fillFormToWire(value: unknown): Array<{ fieldId: string; value: string }> | undefined {
	const list = entriesOf('fillForm', value, 'field').map((entry, position) => {
		const fieldId = nonBlank('fillForm', position, 'fieldId', entry?.fieldId);
		const given = entry?.value ?? '';
		if (typeof given !== 'string' && typeof given !== 'number' && typeof given !== 'boolean') {
			throw new FieldError('fillForm', `fillForm entry ${position + 1}: the value of "${fieldId}" must be a text, got ${quote(given)}`);
		}
		return { fieldId, value: String(given) };
	});
	return list.length ? list : undefined;
}

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

export const createSessionLink: OperationDefinition = {
	value: 'createSessionLink',
	name: 'Create Session Link',
	action: 'Create a QES onboarding session link',
	description:
		'Start a QES onboarding session: returns the link the person opens to identify and sign the document, its requestId and expiry',
	method: 'POST',
	path: '/onboarding/createSessionLink',
	toolDescription:
		'STARTS A SIGNING SESSION FOR A REAL PERSON: creates a QES onboarding link for email and phoneNumber (E.164, with +), with redirectUrl and docUrl (a public https PDF with a signature field). Returns url, requestId and expiresAfter; the link is usually mailed to the person next. Each call starts a new, possibly billed session: call it once, only when the user asks to onboard that person.',
	// Each call starts a new session (and the next node usually mails its link): never resent blindly.
	repeatable: false,
	receipt: { name: 'requestId', of: (json) => json.requestId },
	fields: [
		text('email', {
			displayName: 'Email',
			required: true,
			placeholder: 'name@email.com',
			description: 'E-mail address of the person to identify.',
			normalize: (value) => value.trim(),
			rules: [rule.email],
		}),
		text('phoneNumber', {
			displayName: 'Phone Number',
			required: true,
			placeholder: '+4915112345678',
			description:
				'Mobile number of the person in international (E.164) format. Spaces, dashes, dots, slashes and parentheses are removed first, so "+49 (151) 1234-5678" is sent as +4915112345678.',
			normalize: (value) => value.replace(PHONE_FORMATTING, ''),
			rules: [rule.pattern(/^\+[1-9][0-9]{6,14}$/, 'in E.164 format: + and 7 to 15 digits, the first not 0, e.g. +4915112345678')],
		}),
		text('redirectUrl', {
			displayName: 'Redirect URL',
			required: true,
			placeholder: 'https://example.com/onboarding/done',
			description: 'Where the person is sent after the session.',
			normalize: (value) => value.trim(),
			rules: [rule.httpUrl],
		}),
		text('docUrl', {
			displayName: 'Document URL',
			required: true,
			placeholder: 'https://example.com/contracts/contract.pdf',
			description:
				'The PDF to sign. It must be public (reachable without login or auth headers) and carry at least one signature field.',
			normalize: (value) => value.trim(),
			rules: [httpsUrl],
		}),
		{
			...parameter(
				'signForms',
				{
					displayName: 'Sign Forms',
					placeholder: 'Add Signature Field',
					description: 'Signature fields of the PDF and who signs them (sent as signForms: [{fieldId, actorId}])',
				},
				{
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
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
				signFormsToWire,
			),
			location: 'body',
		},
		{
			...parameter(
				'fillForm',
				{
					displayName: 'Fill Form',
					placeholder: 'Add Form Field',
					description: 'Form fields of the PDF to fill in before signing (sent as fillForm: [{fieldId, value}])',
				},
				{
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
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
				fillFormToWire,
			),
			location: 'body',
		},
	],
	run: async ({ ctx, itemIndex, send }, request) => {
		const response = await send(request);
		const json = responseJson(response.body);
		const data = isObject(json.data) ? json.data : json;
		const { url, requestId, expiresAfter } = data;
		if (typeof url !== 'string' || url === '' || (typeof requestId !== 'string' && typeof requestId !== 'number')) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Create Session Link got HTTP ${response.statusCode} without a session link (expected data.url and data.requestId)`,
				{ itemIndex, description: 'No session was confirmed. Check the base URL of the credential before running it again.' },
			);
		}
		// Top-level copies for the next node (e.g. the e-mail with the link); the response stays whole.
		return [{ json: { ...json, url, requestId, expiresAfter: expiresAfter ?? null } }];
	},
};

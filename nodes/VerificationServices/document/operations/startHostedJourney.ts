import type { IDataObject } from 'n8n-workflow';

import { iban } from '../../../shared/fields/bank-account';
import { valueAt } from '../../../shared/responses/envelope';
import { isObject, responseJson } from '../../../shared/responses/json';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { birthDate, countryCode, postalCode } from '../../../shared/fields/person-rules';
import { internationalNumber } from '../../../shared/fields/phone-number';
import { Redactor } from '../../../shared/transport/redact';
import { jsonObject, text } from '../../../shared/fields/rules';
import { documentStep } from '../document-step';

const trimmed = text({ normalize: (value) => value.trim() });
/** An optional text of the person's data: trimmed, and left out when blank (an expression gave spaces). */
const optionalText: Rule = {
	toWire: (value, field) => (trimmed.toWire(value, field) as string) || undefined,
};

export const startHostedJourney: OperationDefinition = {
	value: 'startHostedJourney',
	name: 'Start Hosted Journey',
	action: 'Start a hosted identity journey',
	description:
		"Start the provider's hosted identity journey (ID document, liveness and selfie match in the provider's pages): returns the link for the person (uiHandle) and the transactionId. The verdict arrives at the IDCanopy Umbrella Trigger (Signed Journey or Payment Result). Each journey is billed.",
	method: 'POST',
	path: '/sdk/universal/handshake',
	// Each call starts a new, billed journey: never resent after a network error.
	repeatable: false,
	effect: { does: 'starts a billed identity journey for a real person' },
	toolDescription:
		"returns uiHandle, the link the person opens to photograph their ID document and take a selfie in the provider's pages, and transactionId. The verdict (PASS, DECLINE, REVIEW or FLAG) arrives later at the IDCanopy Umbrella Trigger (Signed Journey or Payment Result), not in this answer. Supply processName (agreed with the provider); optionally the person's data the document is checked against (fullName, DOB, address, iban, phoneNumber). Call it once per person, only when the user asks to verify that person.",
	receipt: 'transactionId',
	// No journey can go on without its link and id.
	expects: { allOf: ['transactionId', 'uiHandle'] },
	hints: {
		400: 'The API refused the journey: check the field named in the message, and that the process name is one agreed with the provider.',
		403: 'Your account may not start hosted journeys: ask the provider to enable them for your customer ID.',
	},
	fields: [
		{
			property: {
				displayName:
					"Give the person uiHandle (a link to the provider's pages: redirect them, or embed it). The verdict arrives signed at the IDCanopy Umbrella Trigger (Signed Journey or Payment Result), with the same transactionId.",
				name: 'journeyNotice',
				type: 'notice',
				default: '',
			},
		},
		{
			property: {
				displayName: 'Process Name',
				name: 'processName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'onboarding',
				description:
					'The journey (process) agreed with the provider; it also labels the journey on your invoice',
			},
			rule: trimmed,
			nest: 'journey',
		},
		documentStep,
		{
			property: {
				displayName: 'Full Name',
				name: 'fullName',
				type: 'string',
				default: '',
				placeholder: 'Erika Mustermann',
				description: "The person's name as on the document, checked against it",
			},
			rule: optionalText,
			nest: 'validationData',
			additional: true,
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'DOB',
				type: 'string',
				default: '',
				placeholder: '1964/08/12',
				description: "The person's date of birth, checked against the document",
			},
			rule: birthDate,
			nest: 'validationData',
			additional: true,
		},
		{
			property: {
				displayName: 'Address Street',
				name: 'streetAddress',
				type: 'string',
				default: '',
				placeholder: 'Hauptstraße 5',
				description: "Street and house number of the person's address",
			},
			rule: optionalText,
			nest: 'validationData.address',
			additional: true,
		},
		{
			property: {
				displayName: 'Address Locality',
				name: 'locality',
				type: 'string',
				default: '',
				placeholder: 'Wien',
				description: "City or town of the person's address",
			},
			rule: optionalText,
			nest: 'validationData.address',
			additional: true,
		},
		{
			property: {
				displayName: 'Address Region',
				name: 'region',
				type: 'string',
				default: '',
				placeholder: 'Wien',
				description: "State, province or region of the person's address",
			},
			rule: optionalText,
			nest: 'validationData.address',
			additional: true,
		},
		{
			property: {
				displayName: 'Address Postal Code',
				name: 'postalCode',
				type: 'string',
				default: '',
				placeholder: '1010',
			},
			rule: postalCode,
			nest: 'validationData.address',
			additional: true,
		},
		{
			property: {
				displayName: 'Address Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'AT',
			},
			rule: countryCode,
			nest: 'validationData.address',
			additional: true,
		},
		{
			property: {
				displayName: 'IBAN',
				name: 'iban',
				type: 'string',
				default: '',
				placeholder: 'AT61 1904 3002 3457 3201',
				description: "The person's bank account",
			},
			rule: iban,
			nest: 'validationData',
			additional: true,
		},
		{
			property: {
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				placeholder: '+436501234567',
				description:
					"The person's mobile number in international (E.164) format; spaces, dashes, dots, slashes and parentheses are removed first",
			},
			rule: internationalNumber,
			nest: 'validationData',
			additional: true,
		},
		{
			property: {
				displayName: 'Unstructured Input',
				name: 'unstructuredInput',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description:
					'Any other data about the person, as free text, for the provider to check against',
			},
			rule: optionalText,
			nest: 'validationData',
			additional: true,
		},
		{
			property: {
				displayName: 'Pass Through Data',
				name: 'passThroughData',
				type: 'json',
				default: '{}',
				description:
					'Your own metadata (a JSON object, e.g. your customer number), kept with the journey',
			},
			rule: jsonObject,
			additional: true,
		},
	],
	// The journey's customerId is the item's account's, a secret: never a parameter (so it is in no
	// workflow, input or pinned data), and cut out of the answer as every error cuts it out.
	run: async (item, request) => {
		const { customerId } = item.credentials;
		const body = request.body ?? {};
		const journey = { customerId, ...(isObject(body.journey) ? body.journey : {}) };
		const response = await item.send({ ...request, body: { ...body, journey } });
		// The answer whole (without the customer id, should the API echo it), and the link and id at the top level.
		const json: IDataObject = new Redactor([customerId]).value(responseJson(response.body));
		return [
			{
				json: {
					...json,
					transactionId: valueAt(response.body, 'transactionId') as string,
					uiHandle: valueAt(response.body, 'uiHandle') as string,
				},
			},
		];
	},
};

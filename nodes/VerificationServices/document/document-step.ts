import type { IDataObject } from 'n8n-workflow';

import { FieldError, quote } from '../../shared/fields/field-error';
import { entriesOf } from '../../shared/fields/fixed-collection';
import { listEntries } from '../../shared/fields/rules';
import type { Rule, ValueField } from '../../shared/operation/operation-types';

/**
 * The hosted journey's document step (`steps` of the handshake): the checks it runs and the
 * documents it accepts. The documentation shows the step as `{id, type: "documentVerification",
 * interface: "Umbrella Toolbox", blocking, configuration}`; with nothing set, no step is sent and the
 * journey runs as the provider configured it for the process name.
 */

const CHECKS = ['extraForensics', 'biometricMatching', 'liveness', 'photoIdentPlus'] as const;
const ID_TYPES = ['passport', 'nationalId', 'driversLicense'];
const COUNTRY_LIST = 'ISO 3166-1 country codes of 2 or 3 letters, separated by commas (AT, DE)';

function flag(name: string, setting: string, value: unknown): boolean {
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	throw new FieldError(name, `${name}: ${setting} must be true or false, got ${quote(value)}`);
}

/** A comma-separated text or an array of codes, upper-cased; none when empty. */
function countryList(name: string, where: string, value: unknown): string[] | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const codes = listEntries(value).map((code) => code.toUpperCase());
	const isList = Array.isArray(value) || typeof value === 'string';
	if (!isList || codes.some((code) => !/^[A-Z]{2,3}$/.test(code)))
		throw new FieldError(name, `${name}: ${where} must be ${COUNTRY_LIST}, got ${quote(value)}`);
	return codes.length ? codes : undefined;
}

/** [{idType, bloc?, countries?, excludedCountries?}]: the documents the person may show. */
function permittedDocuments(name: string, value: unknown): IDataObject[] | undefined {
	const documents = entriesOf(name, value, 'document').map((entry, position) => {
		const where = `permitted document ${position + 1}`;
		if (!ID_TYPES.includes(String(entry.idType))) {
			throw new FieldError(
				name,
				`${name}: ${where}: idType must be one of ${ID_TYPES.join(', ')}, got ${quote(entry.idType ?? '')}`,
			);
		}
		const document: IDataObject = { idType: String(entry.idType) };
		const bloc = String(entry.bloc ?? '')
			.trim()
			.toUpperCase();
		if (bloc !== '' && !/^[A-Z]{2,10}$/.test(bloc))
			throw new FieldError(
				name,
				`${name}: ${where}: bloc must be a group of countries such as EEA, got ${quote(entry.bloc)}`,
			);
		if (bloc !== '') document.bloc = bloc;
		const countries = countryList(name, `${where}: countries`, entry.countries);
		if (countries) document.countries = countries;
		const excluded = countryList(name, `${where}: excludedCountries`, entry.excludedCountries);
		if (excluded) document.excludedCountries = excluded;
		return document;
	});
	return documents.length ? documents : undefined;
}

const documentStepRule: Rule = {
	// The editor stores a collection as an object of the settings added (it drops anything else).
	toWire: (collection, { name }) => {
		const value = collection as IDataObject;
		const configuration: IDataObject = {};
		for (const check of CHECKS)
			if (value[check] !== undefined) configuration[check] = flag(name, check, value[check]);
		const documents =
			value.permittedDocuments === undefined
				? undefined
				: permittedDocuments(name, value.permittedDocuments);
		if (documents) configuration.permittedDocuments = documents;
		const blocking =
			value.blocking === undefined ? undefined : flag(name, 'blocking', value.blocking);
		if (!Object.keys(configuration).length && blocking === undefined) return undefined;
		const step: IDataObject = {
			id: 'documentVerification',
			type: 'documentVerification',
			interface: 'Umbrella Toolbox',
		};
		if (blocking !== undefined) step.blocking = blocking;
		return [{ ...step, configuration }];
	},
};

export const documentStep: ValueField = {
	property: {
		displayName: 'Document Step',
		name: 'steps',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		description:
			"How the journey's document step runs, sent as one documentVerification step. With nothing set, the journey runs as the provider configured it for the process name.",
		options: [
			{
				displayName: 'Biometric Matching',
				name: 'biometricMatching',
				type: 'boolean',
				default: true,
				description: "Whether to match the person's selfie with the portrait on the document",
			},
			{
				displayName: 'Blocking',
				name: 'blocking',
				type: 'boolean',
				default: true,
				description: 'Whether the journey ends when the document step fails',
			},
			{
				displayName: 'Extra Forensics',
				name: 'extraForensics',
				type: 'boolean',
				default: true,
				description: 'Whether to run additional forensic checks on the document images',
			},
			{
				displayName: 'Liveness',
				name: 'liveness',
				type: 'boolean',
				default: true,
				description:
					'Whether to check that a live person takes the selfie (not a photo or a screen)',
			},
			{
				displayName: 'Permitted Documents',
				name: 'permittedDocuments',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Document Type',
				description: 'The documents the person may show; with none, the provider decides',
				options: [
					{
						displayName: 'Document',
						name: 'document',
						values: [
							{
								displayName: 'Document Type',
								name: 'idType',
								type: 'options',
								options: [
									{ name: 'Passport', value: 'passport' },
									{ name: 'National ID Card', value: 'nationalId' },
									{ name: "Driver's License", value: 'driversLicense' },
								],
								default: 'passport',
							},
							{
								displayName: 'Bloc',
								name: 'bloc',
								type: 'string',
								default: '',
								placeholder: 'EEA',
								description: 'A group of issuing countries, such as EEA',
							},
							{
								displayName: 'Countries',
								name: 'countries',
								type: 'string',
								default: '',
								placeholder: 'AT, DE',
								description: `Issuing countries accepted: ${COUNTRY_LIST}`,
							},
							{
								displayName: 'Excluded Countries',
								name: 'excludedCountries',
								type: 'string',
								default: '',
								placeholder: 'RU',
								description: `Issuing countries refused: ${COUNTRY_LIST}`,
							},
						],
					},
				],
			},
			{
				displayName: 'Photo Ident Plus',
				name: 'photoIdentPlus',
				type: 'boolean',
				default: false,
				description: "Whether to run the provider's Photo Ident Plus check",
			},
		],
	},
	rule: documentStepRule,
};

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { payloadOf, valueAt } from '../../../shared/responses/envelope';
import { FieldError, ruleBroken } from '../../../shared/fields/field-error';
import { isObject, responseJson } from '../../../shared/responses/json';
import type {
	FieldValues,
	OperationDefinition,
	Rule,
} from '../../../shared/operation/operation-types';
import {
	boolean,
	calendarDate,
	choice,
	listEntries,
	number,
	text,
} from '../../../shared/fields/rules';
import { firstOf, pick } from '../../../shared/responses/pick';
import { type DecidedRecords, decidedRecordsOption, reviewDelta } from '../screening-review';

const SOURCE_TYPES = ['SANCTION', 'PEP', 'CRIMINAL'];
/** Where a best-match profile may state its verdict; without one, no isHit is derived. */
const HIT_FLAGS = ['isHit', 'hit', 'matchFound'];
/** The search constraints: any of them switches to the newer request form. */
const CONSTRAINTS = ['countries', 'datasets', 'threshold', 'matchingMode'];

const withConstraints = (values: FieldValues) =>
	CONSTRAINTS.some((name) => values[name] !== undefined);

/** Where a best-match profile answer holds the one record it found. */
const PROFILE_RECORDS = ['profile', 'bestMatch'];

/**
 * Beside the response, never instead of it. The list answer (`foundRecords`, in either generation's
 * shape): one flag to branch on and the hits per list. Any other answer is a best-match profile:
 * `isHit` only where the answer states a verdict. Both: the review delta of the records found
 * (screening-review.ts), against the records a person already decided.
 */
export function screeningSummary(response: IDataObject, decided?: DecidedRecords): IDataObject {
	const found = valueAt(response, 'foundRecords');
	if (!Array.isArray(found)) {
		const flag = HIT_FLAGS.map((name) => valueAt(response, name)).find(
			(value) => typeof value === 'boolean',
		);
		const profile = PROFILE_RECORDS.map((name) => valueAt(response, name)).find(isObject);
		return {
			shape: 'profile',
			...(flag !== undefined ? { isHit: flag } : {}),
			...reviewDelta(profile ? [profile] : [], decided),
		};
	}
	const records = found as IDataObject[];
	const hitsBySourceType: IDataObject = Object.fromEntries(SOURCE_TYPES.map((t) => [t, 0]));
	for (const record of records) {
		const type = typeof record.sourceType === 'string' ? record.sourceType : 'UNKNOWN';
		hitsBySourceType[type] = ((hitsBySourceType[type] as number) ?? 0) + 1;
	}
	const total = valueAt(response, 'totalHits');
	const totalHits = typeof total === 'number' ? total : records.length;
	return {
		shape: 'list',
		isHit: totalHits > 0 || records.length > 0,
		totalHits,
		hitsBySourceType,
		...reviewDelta(records.filter(isObject), decided),
	};
}

/** What an AI agent's model reads of one check: the verdict, the hits per list and each record's id for a follow-up. */
export function screeningForModel(json: IDataObject): IDataObject {
	const found = valueAt(json, 'foundRecords');
	// A best-match profile, or one item per record (option): already what the model needs.
	if (!Array.isArray(found)) return json;
	const records = firstOf(found, 10, (record) =>
		pick(record, [
			'id',
			'name',
			'sourceType',
			'pepType',
			'sourceId',
			'entityType',
			'dateOfBirth',
			'citizenship',
		]),
	);
	// The fingerprints are for the workflow's records, not for the model.
	const summary = isObject(json.screeningSummary) ? json.screeningSummary : screeningSummary(json);
	const told = { ...summary };
	delete told.fingerprints;
	return {
		...told,
		records: records.listed,
		...(records.more ? { moreRecords: records.more } : {}),
		...pick(payloadOf(json), ['timestamp']),
	};
}

/** Comma-separated text or a list from an expression, sent as one comma-separated string ("NL,GB"). */
function commaSeparated(options: {
	normalize: (part: string) => string;
	check?: { hint: string; test: (part: string) => boolean };
}): Rule {
	const hint = options.check ? `comma-separated ${options.check.hint}` : undefined;
	return {
		hint,
		toWire: (value, field) => {
			const list = listEntries(value)
				.map(options.normalize)
				.filter((p) => p !== '');
			if (!list.length || (options.check && !list.every(options.check.test)))
				throw ruleBroken(field.name, hint ?? 'a comma-separated list', value);
			return list.join(',');
		},
	};
}

const countries: Rule = {
	...commaSeparated({
		normalize: (part) => part.toUpperCase(),
		check: {
			hint: 'two-letter ISO 3166-1 country codes such as NL,GB',
			test: (part) => /^[A-Z]{2}$/.test(part),
		},
	}),
	// The newer request form requires countries: the other constraints alone are refused before sending.
	whenEmpty: ({ name, values }) => {
		if (withConstraints(values)) {
			throw new FieldError(
				name,
				`${name} is required when Datasets, Threshold or Matching Mode is set (the request with search constraints needs it)`,
			);
		}
		return undefined;
	},
};

/**
 * The date of birth: yyyy/mm/dd in the list request, YYYY-MM-DD or a year alone (YYYY) with search
 * constraints; after 1900 and not in the future.
 */
const birthDate: Rule = {
	hint: 'a date as yyyy/mm/dd (an ISO date such as 1980-04-30 or an n8n date is converted); with search constraints also a year alone, such as 1980',
	toWire: (value, field) => {
		const constrained = withConstraints(field.values);
		const year = /^\d{4}$/.test(String(value).trim()) ? Number(String(value).trim()) : undefined;
		const date = year === undefined ? calendarDate(value) : undefined;
		if (year !== undefined && !constrained) {
			throw ruleBroken(
				field.name,
				'a full date as yyyy/mm/dd: a year alone needs search constraints (set Countries)',
				value,
			);
		}
		if (year === undefined && !date)
			throw ruleBroken(field.name, 'a real date as yyyy/mm/dd (or an ISO date)', value);
		const [y, m, d] = date ? [date.year, date.month, date.day] : [year!, 1, 1];
		if (y <= 1900 || Date.UTC(y, m - 1, d) > Date.now())
			throw ruleBroken(field.name, 'a date after 1900 and not in the future', value);
		const pad = (n: number) => String(n).padStart(2, '0');
		if (!date) return String(y);
		return constrained ? `${y}-${pad(m)}-${pad(d)}` : `${y}/${pad(m)}/${pad(d)}`;
	},
};

export const checkIndividual: OperationDefinition = {
	value: 'checkIndividual',
	name: 'Check Individual',
	action: 'Check an individual',
	description: 'Screen a person against sanction, PEP and criminal lists',
	method: 'POST',
	path: '/aml/checkIndividual',
	repeatable: true,
	toolDescription:
		"Screen one person against sanction, PEP (politically exposed person) and criminal lists. Supply name (the person's full name) and, when known, dob (date of birth as yyyy/mm/dd, for example 1970/01/15; leave it empty when unknown, never guess it). Returns isHit, totalHits, the hits per list and each matching record's id, name, list and date of birth. Read-only; the provider may bill each check.",
	// A verdict needs a real screening result: `{}`, an error, HTML or an empty 200 never becomes "no hit".
	expects: { result: true },
	fields: [
		{
			property: {
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Jane Doe',
				description:
					'Full name of the person, checked against the name fields of every list. With search constraints the provider matches best on "last names, first names middle names".',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Datasets',
				name: 'datasets',
				type: 'string',
				default: '',
				placeholder: 'OFAC-SDN,EU-CFSP',
				description: 'Search constraint: only these datasets of the provider, comma-separated',
			},
			rule: commaSeparated({ normalize: (part) => part }),
			additional: true,
		},
		{
			property: {
				displayName: 'Threshold',
				name: 'threshold',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
				default: 0.7,
				description:
					'Search constraint: the lowest match score (0 to 1) a profile needs to count as a match',
			},
			rule: number,
			additional: true,
		},
		{
			property: {
				displayName: 'Matching Mode',
				name: 'matchingMode',
				type: 'options',
				options: [
					{ name: 'Exact', value: 'exact', description: 'Only the name or an alias as given' },
					{ name: 'Fuzzy', value: 'fuzzy', description: 'Similar spellings and partial names too' },
				],
				default: 'fuzzy',
				description: 'Search constraint: how names are matched',
			},
			rule: choice,
			additional: true,
		},
		{
			property: {
				displayName: 'Countries',
				name: 'countries',
				type: 'string',
				default: '',
				placeholder: 'NL,GB',
				description:
					'Search constraint: only profiles with an address or nationality in these countries. Setting any search constraint sends the newer request form (name, dateOfBirth, countries, ...), which needs Countries and answers with the best-matching profile instead of a list.',
			},
			rule: countries,
			additional: true,
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'dob',
				type: 'string',
				default: '',
				placeholder: '1980/04/30',
				description:
					'Optional. Narrows the matches to records with this date of birth. Sent as dateOfBirth (YYYY-MM-DD) with search constraints.',
			},
			rule: birthDate,
			sendAs: (values) => (withConstraints(values) ? 'dateOfBirth' : 'dob'),
		},
	],
	options: [
		decidedRecordsOption,
		{
			property: {
				displayName: 'One Item per Record',
				name: 'splitRecords',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item per found record (with the search and its summary beside it) instead of one item per person. A person without hits, or a best-match profile, still yields one item.',
			},
			rule: boolean(),
		},
	],
	toolSummary: screeningForModel,
	toItems: (response, { values }): INodeExecutionData[] => {
		const json = responseJson(response.body);
		const summary = screeningSummary(json, values.decidedRecords as DecidedRecords | undefined);
		const found = valueAt(json, 'foundRecords');
		const records = Array.isArray(found) ? (found as IDataObject[]) : [];
		if (values.splitRecords !== true || records.length === 0)
			return [{ json: { ...json, screeningSummary: summary } }];
		const search: IDataObject = { ...payloadOf(json) };
		delete search.foundRecords;
		const sent = pick(values, ['name', 'dob', ...CONSTRAINTS]);
		return records.map((record) => ({
			json: { ...record, search: { ...search, ...sent }, screeningSummary: summary },
		}));
	},
};

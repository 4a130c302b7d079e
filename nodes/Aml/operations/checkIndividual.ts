import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { responseJson } from '../../shared/json';
import type { OperationDefinition } from '../../shared/operation-types';
import { boolean, date, text } from '../../shared/rules';
import { firstOf, pick } from '../../shared/tool-output';

const SOURCE_TYPES = ['SANCTION', 'PEP', 'CRIMINAL'];

/** Beside the response, never instead of it: hit count per list and one flag to branch on. */
export function screeningSummary(response: IDataObject): IDataObject {
	const records = Array.isArray(response.foundRecords) ? (response.foundRecords as IDataObject[]) : [];
	const hitsBySourceType: IDataObject = Object.fromEntries(SOURCE_TYPES.map((t) => [t, 0]));
	for (const record of records) {
		const type = typeof record.sourceType === 'string' ? record.sourceType : 'UNKNOWN';
		hitsBySourceType[type] = ((hitsBySourceType[type] as number) ?? 0) + 1;
	}
	const totalHits = typeof response.totalHits === 'number' ? response.totalHits : records.length;
	return { isHit: totalHits > 0 || records.length > 0, totalHits, hitsBySourceType };
}

/** What an AI agent's model reads of one check: the verdict, the hits per list and each record's id for a follow-up. */
export function screeningForModel(json: IDataObject): IDataObject {
	if (!Array.isArray(json.foundRecords)) return json; // one item per record (option): already one record
	const records = firstOf(json.foundRecords, 10, (record) =>
		pick(record, ['id', 'name', 'sourceType', 'pepType', 'sourceId', 'entityType', 'dateOfBirth', 'citizenship']),
	);
	return {
		...screeningSummary(json),
		records: records.shown,
		...(records.more ? { moreRecords: records.more } : {}),
		...pick(json, ['timestamp']),
	};
}

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
	// A verdict needs a real screening result: `{}`, HTML or an empty 200 never becomes "no hit".
	expects: { body: 'json', oneOf: ['totalHits', 'foundRecords'] },
	fields: [
		{
			property: {
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Jane Doe',
				description: 'Full name of the person, checked against the name fields of every list',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Date of Birth',
				name: 'dob',
				type: 'string',
				default: '',
				placeholder: '1980/04/30',
				description: 'Optional. Narrows the matches to records with this date of birth.',
			},
			rule: date,
		},
	],
	options: [
		{
			property: {
				displayName: 'One Item per Record',
				name: 'splitRecords',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item per found record (with the search and its summary beside it) instead of one item per person. A person without hits still yields one item.',
			},
			rule: boolean(),
		},
	],
	toolSummary: screeningForModel,
	toItems: (response, { values }): INodeExecutionData[] => {
		const json = responseJson(response.body);
		const summary = screeningSummary(json);
		const split = values.splitRecords === true;
		const records = Array.isArray(json.foundRecords) ? (json.foundRecords as IDataObject[]) : [];
		if (!split || records.length === 0) return [{ json: { ...json, screeningSummary: summary } }];
		const search = { ...json };
		delete search.foundRecords;
		return records.map((record) => ({
			json: { ...record, search: { ...search, name: values.name as string, dob: values.dob as string }, screeningSummary: summary },
		}));
	},
};

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { date, text } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';
import { responseJson } from '../../shared/run-operations';

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

export const checkIndividual: OperationDefinition = {
	value: 'checkIndividual',
	name: 'Check Individual',
	action: 'Check an individual',
	description: 'Screen a person against sanction, PEP and criminal lists',
	method: 'POST',
	path: '/aml/checkIndividual',
	repeatable: true,
	// A verdict needs a real screening result: `{}`, HTML or an empty 200 never becomes "no hit".
	expects: { body: 'json', oneOf: ['totalHits', 'foundRecords'] },
	fields: [
		text('name', {
			displayName: 'Name',
			required: true,
			placeholder: 'Jane Doe',
			description: 'Full name of the person, checked against the name fields of every list',
		}),
		date('dob', {
			displayName: 'Date of Birth',
			placeholder: '1980/04/30',
			description: 'Optional. Narrows the matches to records with this date of birth.',
		}),
	],
	options: [
		{
			displayName: 'One Item per Record',
			name: 'splitRecords',
			type: 'boolean',
			default: false,
			description:
				'Whether to output one item per found record (with the search and its summary beside it) instead of one item per person. A person without hits still yields one item.',
		},
	],
	toItems: (response, { ctx, itemIndex, values }): INodeExecutionData[] => {
		const json = responseJson(response.body);
		const summary = screeningSummary(json);
		const split = (ctx.getNodeParameter('options.splitRecords', itemIndex, false) as boolean) === true;
		const records = Array.isArray(json.foundRecords) ? (json.foundRecords as IDataObject[]) : [];
		if (!split || records.length === 0) return [{ json: { ...json, screeningSummary: summary } }];
		const { foundRecords: _all, ...search } = json;
		return records.map((record) => ({
			json: { ...record, search: { ...search, name: values.name, dob: values.dob }, screeningSummary: summary },
		}));
	},
};

import type { IDataObject } from 'n8n-workflow';

import { bodyHash } from '../../shared/responses/canonical-json';
import { ruleBroken } from '../../shared/fields/field-error';
import { parsedJson } from '../../shared/fields/rules';
import type { Rule, ValueField } from '../../shared/operation/operation-types';

/**
 * The review delta of a screening: each record of the answer gets a fingerprint (SHA-256 of its RFC
 * 8785 canonical JSON as the API returned it), and the records a person already decided come back
 * only when they are new or their content changed since. The verdict is never touched: a decided hit
 * is still a hit.
 */

/** Record id -> fingerprint, as Decided Records gives them. */
export type DecidedRecords = Record<string, string>;

const FINGERPRINT = /^[0-9a-f]{64}$/i;
const SHAPE =
	'an object of record id to fingerprint ({"AML-SAN-0001": "<64 hex digits>"}) or a list of {"id", "fingerprint"}';

function decidedEntry(id: unknown, fingerprint: unknown): [string, string] | undefined {
	const validId = (typeof id === 'string' && id.trim() !== '') || typeof id === 'number';
	const valid = validId && typeof fingerprint === 'string' && FINGERPRINT.test(fingerprint);
	return valid ? [String(id).trim(), (fingerprint as string).toLowerCase()] : undefined;
}

/** Decided Records: JSON text or an expression's value, as an object or a list; anything else is refused. */
const decidedRecords: Rule = {
	hint: SHAPE,
	toWire: (value, field) => {
		const parsed = parsedJson(value, field.name, `${SHAPE}, as JSON`);
		if (parsed === null || typeof parsed !== 'object') throw ruleBroken(field.name, SHAPE, value);
		const entries = Array.isArray(parsed)
			? parsed.map((entry: IDataObject | null) => decidedEntry(entry?.id, entry?.fingerprint))
			: Object.entries(parsed).map(([id, fingerprint]) => decidedEntry(id, fingerprint));
		const broken = entries.findIndex((entry) => entry === undefined);
		if (broken !== -1) {
			const which = Array.isArray(parsed)
				? `entry ${broken + 1}`
				: `"${Object.keys(parsed)[broken]}"`;
			throw ruleBroken(field.name, `${SHAPE} (${which} is not)`, value);
		}
		return Object.fromEntries(entries as Array<[string, string]>);
	},
};

export const decidedRecordsOption: ValueField = {
	property: {
		displayName: 'Decided Records',
		name: 'decidedRecords',
		type: 'json',
		default: '{}',
		description:
			"The records a person already decided for this person, with the fingerprint they decided (from an earlier answer's screeningSummary.fingerprints). The answer then lists which records are new and which changed since, and whether the person needs review; hits stay hits.",
	},
	rule: decidedRecords,
};

/** A record's id as the review names it; a record without one is named by its fingerprint. */
const recordId = (record: IDataObject, fingerprint: string): string =>
	typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : fingerprint;

/** The fingerprints of the answer's records and what is new or changed since the decided ones. */
export function reviewDelta(records: IDataObject[], decided: DecidedRecords = {}): IDataObject {
	const fingerprints: Record<string, string> = {};
	const newRecordIds: string[] = [];
	const changedRecordIds: string[] = [];
	for (const record of records) {
		const fingerprint = bodyHash(record);
		const id = recordId(record, fingerprint);
		fingerprints[id] = fingerprint;
		const before = decided[id];
		if (before === undefined) newRecordIds.push(id);
		else if (before !== fingerprint) changedRecordIds.push(id);
	}
	const needsReview = newRecordIds.length + changedRecordIds.length > 0;
	return { fingerprints, newRecordIds, changedRecordIds, needsReview };
}

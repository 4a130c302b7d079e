'use strict';

// AML fixtures: individuals on sanction, PEP and criminal lists, plus names that trigger errors.

function record(fields) {
	return {
		id: '',
		sourceType: '',
		pepType: '',
		sourceId: '',
		entityType: 'INDIVIDUAL',
		gender: 'UNKNOWN',
		name: '',
		lastNames: [],
		aliasNames: [],
		givenNames: [],
		dateOfBirth: [],
		placeOfBirth: [],
		citizenship: [],
		occupations: [],
		positions: [],
		politicalParties: [],
		links: [],
		...fields,
	};
}

const SOURCE_TYPES = { SAN: 'SANCTION', PEP: 'PEP', CRI: 'CRIMINAL' };

/** A listed person: the given and the last name are the two words of `name`; the list type is named in the id (AML-SAN-...). */
function listed(fields) {
	const [given, last] = fields.name.split(' ');
	return record({ sourceType: SOURCE_TYPES[fields.id.slice(4, 7)], givenNames: [given], lastNames: [last], ...fields });
}

const AML_RECORDS = Object.freeze([
	listed({
		id: 'AML-SAN-0001',
		sourceId: 'OFAC-SDN',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		aliasNames: ['Viktor S.', 'V. Sanktioniert'],
		dateOfBirth: ['1970/01/15'],
		placeOfBirth: ['Minsk'],
		citizenship: ['BY'],
		occupations: ['Businessman'],
		positions: ['Director of Example Export Ltd (2005-2019)'],
		links: ['https://sanctionssearch.ofac.treas.gov/'],
	}),
	listed({
		id: 'AML-SAN-0002',
		sourceId: 'EU-CFSP',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		dateOfBirth: ['1970/01/15'],
		placeOfBirth: ['Minsk'],
		citizenship: ['BY'],
		positions: ['Shareholder of Example Export Ltd'],
		links: ['https://www.sanctionsmap.eu/'],
	}),
	listed({
		id: 'AML-SAN-0003',
		sourceId: 'UN-SC',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		dateOfBirth: ['1982/03/02'],
		placeOfBirth: ['Tbilisi'],
		citizenship: ['GE'],
		occupations: ['Arms dealer'],
	}),
	listed({
		id: 'AML-PEP-0001',
		pepType: 'POLITICIAN',
		sourceId: 'PEP-EU-PARLIAMENTS',
		gender: 'FEMALE',
		name: 'Paula Politician',
		aliasNames: ['Paula P.'],
		dateOfBirth: ['1965/05/20'],
		placeOfBirth: ['Vienna'],
		citizenship: ['AT'],
		occupations: ['Politician', 'Lawyer'],
		positions: ['Member of Parliament (2008-2017)', 'Minister of Finance (2017-2021)'],
		politicalParties: ['Example Democratic Party'],
		links: ['https://www.example.org/parliament/paula-politician', '@paulapolitician'],
	}),
	listed({
		id: 'AML-CRI-0001',
		sourceId: 'INTERPOL-RED-NOTICES',
		gender: 'MALE',
		name: 'Carl Criminal',
		aliasNames: ['Charlie C.'],
		dateOfBirth: ['1980/11/03'],
		placeOfBirth: ['Marseille'],
		citizenship: ['FR'],
		occupations: ['Unknown'],
		links: ['https://www.interpol.int/How-we-work/Notices/Red-Notices'],
	}),
	listed({
		id: 'AML-SAN-0101',
		sourceId: 'OFAC-SDN',
		gender: 'MALE',
		name: 'Max Mixed',
		dateOfBirth: ['1975/07/07'],
		placeOfBirth: ['Riga'],
		citizenship: ['LV'],
	}),
	listed({
		id: 'AML-PEP-0101',
		pepType: 'JUDGE',
		sourceId: 'PEP-GLOBAL',
		gender: 'MALE',
		name: 'Max Mixed',
		dateOfBirth: ['1975/07/07'],
		placeOfBirth: ['Riga'],
		citizenship: ['LV'],
		occupations: ['Judge'],
		positions: ['Judge of the Supreme Court (2010-2016)'],
	}),
	listed({
		id: 'AML-CRI-0101',
		sourceId: 'EUROPOL-MOST-WANTED',
		entityType: 'UNKNOWN',
		name: 'Max Mixed',
		citizenship: ['LV'],
	}),
]);

/** Names (matched case-insensitively) that make checkIndividual answer an error instead. */
const AML_ERROR_NAMES = Object.freeze({
	'forbidden person': { status: 403, message: 'Forbidden' },
	'explode server': { status: 500, message: 'Internal server error' },
});

/** Lower case, trimmed, inner whitespace collapsed. */
const normaliseName = (s) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Records of `records` (the emulator's current lists) whose name or alias equals `name`; with `dob`, records with other dates drop out. */
function findAmlRecords(name, dob, records = AML_RECORDS) {
	const wanted = normaliseName(name);
	return records.filter((r) => {
		const names = [r.name, ...r.aliasNames].map(normaliseName);
		if (!names.includes(wanted)) return false;
		if (dob && r.dateOfBirth.length > 0 && !r.dateOfBirth.includes(dob)) return false;
		return true;
	});
}

/**
 * The newer generation's screening (g3, with search constraints): the best-matching record, scored
 * 1 for the full name, 0.95 for an alias and (matchingMode fuzzy, the default) 0.8 when every word
 * of the query occurs in a name; constraints filter first: countries (citizenship), datasets
 * (sourceId or sourceType), dateOfBirth (a full date or a year; records without one stay), threshold.
 */
function bestAmlMatch({ name, dateOfBirth, countries, datasets, threshold = 0.7, matchingMode = 'fuzzy' }, records = AML_RECORDS) {
	const wanted = normaliseName(name);
	const words = wanted.split(' ');
	const dob = dateOfBirth === undefined ? undefined : dateOfBirth.replace(/-/g, '/');
	const scored = records.map((r) => {
		const names = [r.name, ...r.aliasNames].map(normaliseName);
		if (normaliseName(r.name) === wanted) return { record: r, score: 1 };
		if (names.includes(wanted)) return { record: r, score: 0.95 };
		if (matchingMode === 'fuzzy' && names.some((n) => words.every((w) => n.split(' ').includes(w)))) return { record: r, score: 0.8 };
		return { record: r, score: 0 };
	}).filter(({ record: r, score }) => {
		if (score === 0 || score < threshold) return false;
		if (!r.citizenship.some((c) => countries.includes(c))) return false;
		if (datasets && !datasets.some((d) => [r.sourceId, r.sourceType].map((x) => x.toUpperCase()).includes(d.toUpperCase()))) return false;
		if (dob && r.dateOfBirth.length > 0 && !r.dateOfBirth.some((d) => d === dob || d.startsWith(`${dob}/`))) return false;
		return true;
	});
	scored.sort((a, b) => b.score - a.score);
	return scored[0];
}

/**
 * The lists after `changes` (`[{id, ...fields}]`, in order): a known id gets its fields merged over
 * the record (a list's update: a new position, date of birth, source), an unknown one is added as a
 * new record (a new listing). Ids and names must be non-blank strings; the built-in lists stay as they are.
 */
function changeAmlRecords(records, changes) {
	if (!Array.isArray(changes) || changes.length === 0) throw new TypeError('records must be a non-empty list of {id, ...fields}');
	const next = [...records];
	for (const change of changes) {
		if (change === null || typeof change !== 'object' || typeof change.id !== 'string' || change.id.trim() === '') {
			throw new TypeError('each record needs an id (a non-blank string)');
		}
		const at = next.findIndex((r) => r.id === change.id);
		const changed = at === -1 ? record(change) : { ...next[at], ...change };
		if (typeof changed.name !== 'string' || changed.name.trim() === '') throw new TypeError(`record ${change.id} needs a name (a non-blank string)`);
		if (at === -1) next.push(changed);
		else next[at] = changed;
	}
	return next;
}

module.exports = { AML_RECORDS, AML_ERROR_NAMES, bestAmlMatch, changeAmlRecords, findAmlRecords, normaliseName };

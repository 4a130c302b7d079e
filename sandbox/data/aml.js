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

const AML_RECORDS = Object.freeze([
	record({
		id: 'AML-SAN-0001',
		sourceType: 'SANCTION',
		sourceId: 'OFAC-SDN',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		lastNames: ['Sanctioned'],
		givenNames: ['Viktor'],
		aliasNames: ['Viktor S.', 'V. Sanktioniert'],
		dateOfBirth: ['1970/01/15'],
		placeOfBirth: ['Minsk'],
		citizenship: ['BY'],
		occupations: ['Businessman'],
		positions: ['Director of Example Export Ltd (2005-2019)'],
		links: ['https://sanctionssearch.ofac.treas.gov/'],
	}),
	record({
		id: 'AML-SAN-0002',
		sourceType: 'SANCTION',
		sourceId: 'EU-CFSP',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		lastNames: ['Sanctioned'],
		givenNames: ['Viktor'],
		dateOfBirth: ['1970/01/15'],
		placeOfBirth: ['Minsk'],
		citizenship: ['BY'],
		positions: ['Shareholder of Example Export Ltd'],
		links: ['https://www.sanctionsmap.eu/'],
	}),
	record({
		id: 'AML-SAN-0003',
		sourceType: 'SANCTION',
		sourceId: 'UN-SC',
		gender: 'MALE',
		name: 'Viktor Sanctioned',
		lastNames: ['Sanctioned'],
		givenNames: ['Viktor'],
		dateOfBirth: ['1982/03/02'],
		placeOfBirth: ['Tbilisi'],
		citizenship: ['GE'],
		occupations: ['Arms dealer'],
	}),
	record({
		id: 'AML-PEP-0001',
		sourceType: 'PEP',
		pepType: 'POLITICIAN',
		sourceId: 'PEP-EU-PARLIAMENTS',
		gender: 'FEMALE',
		name: 'Paula Politician',
		lastNames: ['Politician'],
		givenNames: ['Paula'],
		aliasNames: ['Paula P.'],
		dateOfBirth: ['1965/05/20'],
		placeOfBirth: ['Vienna'],
		citizenship: ['AT'],
		occupations: ['Politician', 'Lawyer'],
		positions: ['Member of Parliament (2008-2017)', 'Minister of Finance (2017-2021)'],
		politicalParties: ['Example Democratic Party'],
		links: ['https://www.example.org/parliament/paula-politician', '@paulapolitician'],
	}),
	record({
		id: 'AML-CRI-0001',
		sourceType: 'CRIMINAL',
		sourceId: 'INTERPOL-RED-NOTICES',
		gender: 'MALE',
		name: 'Carl Criminal',
		lastNames: ['Criminal'],
		givenNames: ['Carl'],
		aliasNames: ['Charlie C.'],
		dateOfBirth: ['1980/11/03'],
		placeOfBirth: ['Marseille'],
		citizenship: ['FR'],
		occupations: ['Unknown'],
		links: ['https://www.interpol.int/How-we-work/Notices/Red-Notices'],
	}),
	record({
		id: 'AML-SAN-0101',
		sourceType: 'SANCTION',
		sourceId: 'OFAC-SDN',
		gender: 'MALE',
		name: 'Max Mixed',
		lastNames: ['Mixed'],
		givenNames: ['Max'],
		dateOfBirth: ['1975/07/07'],
		placeOfBirth: ['Riga'],
		citizenship: ['LV'],
	}),
	record({
		id: 'AML-PEP-0101',
		sourceType: 'PEP',
		pepType: 'JUDGE',
		sourceId: 'PEP-GLOBAL',
		gender: 'MALE',
		name: 'Max Mixed',
		lastNames: ['Mixed'],
		givenNames: ['Max'],
		dateOfBirth: ['1975/07/07'],
		placeOfBirth: ['Riga'],
		citizenship: ['LV'],
		occupations: ['Judge'],
		positions: ['Judge of the Supreme Court (2010-2016)'],
	}),
	record({
		id: 'AML-CRI-0101',
		sourceType: 'CRIMINAL',
		sourceId: 'EUROPOL-MOST-WANTED',
		entityType: 'UNKNOWN',
		gender: 'UNKNOWN',
		name: 'Max Mixed',
		lastNames: ['Mixed'],
		givenNames: ['Max'],
		dateOfBirth: [],
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

/** Records whose name or alias equals `name`; with `dob`, records with other dates drop out. */
function findAmlRecords(name, dob) {
	const wanted = normaliseName(name);
	return AML_RECORDS.filter((r) => {
		const names = [r.name, ...r.aliasNames].map(normaliseName);
		if (!names.includes(wanted)) return false;
		if (dob && r.dateOfBirth.length > 0 && !r.dateOfBirth.includes(dob)) return false;
		return true;
	});
}

module.exports = { AML_RECORDS, AML_ERROR_NAMES, findAmlRecords, normaliseName };

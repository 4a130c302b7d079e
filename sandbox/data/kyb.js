'use strict';

// KYB fixtures: searchable companies with their detail packages, company profiles and countries.

function address(line1, line2, city, postalCode, region, country) {
	const parts = [line1, line2, `${postalCode} ${city}`.trim(), region, country].filter(Boolean);
	return { singleLine: parts.join(', '), structured: { line1, line2, city, postalCode, region, country } };
}

const LANGUAGE = { DE: 'de', FR: 'fr', GB: 'en', IT: 'it', NL: 'nl', SE: 'sv', US: 'en' };

/**
 * A company. Unless `fields` say otherwise: its legal name is its name, it has no trading names and no
 * owners, does business at its registered address, is registered in the country its id starts with, is
 * an active private limited company without a website, and its register names its legal form as
 * `legalForm` does (`nativeType`), in the country's language.
 */
function company({ nativeType, ...fields }) {
	const country = fields.companyId.slice(0, 2);
	const defaults = { legalName: fields.name, tradingNames: [], businessAddress: fields.registeredAddress, country, status: 'active', modeledType: 'PRIVATE_LIMITED_COMPANY', website: null, owners: [] };
	return { ...defaults, ...fields, nativeType: { value: nativeType ?? fields.legalForm, language: LANGUAGE[country] } };
}

const COMPANIES = Object.freeze([
	company({
		companyId: 'DE-HRB-123456',
		name: 'Acme Holdings GmbH',
		tradingNames: ['Acme'],
		registrationNumber: 'HRB 123456',
		register: 'Amtsgericht Berlin (Charlottenburg)',
		legalForm: 'GmbH',
		nativeType: 'Gesellschaft mit beschränkter Haftung',
		incorporationDate: '2009-04-01T00:00:00.000Z',
		registrationDate: '2009-04-15T00:00:00.000Z',
		registeredAddress: address('Friedrichstraße 123', null, 'Berlin', '10117', 'Berlin', 'DE'),
		businessAddress: address('Friedrichstraße 123', '3. OG', 'Berlin', '10117', 'Berlin', 'DE'),
		website: 'https://acme-holdings.example.de',
		industry: { code: '64.20', label: 'Activities of holding companies' },
		officers: [
			{ name: 'Erika Musterfrau', role: 'Managing Director', dob: '1976-02-11', nationality: 'DE' },
			{ name: 'Hans Beispiel', role: 'Authorised Signatory', dob: '1983-09-30', nationality: 'AT' },
		],
		owners: [
			{ name: 'Acme Group SE', type: 'COMPANY', share: 75, country: 'DE' },
			{ name: 'Erika Musterfrau', type: 'PERSON', share: 25, country: 'DE' },
		],
		financials: { currency: 'EUR', year: 2023, revenue: 12500000, netIncome: 830000, employees: 84 },
	}),
	company({
		companyId: 'GB-CH-01234567',
		name: 'Acme Trading Ltd',
		legalName: 'ACME TRADING LIMITED',
		registrationNumber: '01234567',
		register: 'Companies House',
		legalForm: 'Private limited company',
		nativeType: 'Private limited Company',
		incorporationDate: '1998-06-23T00:00:00.000Z',
		registrationDate: null,
		registeredAddress: address('10 Example Street', null, 'London', 'EC1A 1BB', null, 'GB'),
		industry: { code: '46.90', label: 'Non-specialised wholesale trade' },
		officers: [
			{ name: 'John Example', role: 'Director', dob: '1969-12-01', nationality: 'GB' },
			{ name: 'Jane Sample', role: 'Secretary', dob: '1985-03-14', nationality: 'IE' },
		],
		owners: [{ name: 'John Example', type: 'PERSON', share: 100, country: 'GB' }],
		financials: { currency: 'GBP', year: 2023, revenue: 3400000, netIncome: 210000, employees: 22 },
	}),
	company({
		companyId: 'US-DE-5551234',
		name: 'Globex Corporation',
		tradingNames: ['Globex', 'Globex Corp.'],
		registrationNumber: '5551234',
		register: 'Delaware Division of Corporations',
		legalForm: 'Corporation',
		modeledType: 'PUBLIC_LIMITED_COMPANY',
		incorporationDate: '1989-11-17T00:00:00.000Z',
		registrationDate: '1989-11-17T00:00:00.000Z',
		registeredAddress: address('1209 Orange Street', null, 'Wilmington', '19801', 'DE', 'US'),
		businessAddress: address('1 Globex Plaza', 'Suite 500', 'Cypress Creek', '97201', 'OR', 'US'),
		website: 'https://globex.example.com',
		industry: { code: '62.01', label: 'Computer programming activities' },
		officers: [
			{ name: 'Hank Scorpio', role: 'Chief Executive Officer', dob: '1956-05-12', nationality: 'US' },
			{ name: 'Mindy Simmons', role: 'Chief Financial Officer', dob: '1972-08-02', nationality: 'US' },
			// Matches the AML fixture "Max Mixed" (sanction, PEP and criminal lists): examples/kyb-onboarding.json
			// screens every officer and needs one that hits.
			{ name: 'Max Mixed', role: 'Board Member', dob: '1975-07-07', nationality: 'LV' },
		],
		owners: [{ name: 'Scorpio Family Trust', type: 'TRUST', share: 51, country: 'US' }],
		financials: { currency: 'USD', year: 2023, revenue: 980000000, netIncome: 76000000, employees: 4100 },
	}),
	company({
		companyId: 'NL-KVK-34567890',
		name: 'Initech B.V.',
		tradingNames: ['Initech'],
		registrationNumber: '34567890',
		register: 'Kamer van Koophandel',
		legalForm: 'Besloten vennootschap',
		nativeType: 'Besloten Vennootschap',
		incorporationDate: '2012-02-29T00:00:00.000Z',
		registrationDate: '2012-03-05T00:00:00.000Z',
		registeredAddress: address('Keizersgracht 1', null, 'Amsterdam', '1015 CJ', 'Noord-Holland', 'NL'),
		website: 'https://initech.example.nl',
		industry: { code: '62.02', label: 'Computer consultancy activities' },
		officers: [{ name: 'Bill Lumbergh', role: 'Bestuurder', dob: '1961-10-10', nationality: 'NL' }],
		owners: [{ name: 'Initech Holding Inc.', type: 'COMPANY', share: 100, country: 'US' }],
		financials: { currency: 'EUR', year: 2022, revenue: 5600000, netIncome: -120000, employees: 48 },
	}),
	company({
		companyId: 'SE-BV-5566778899',
		name: 'Nordic Timber AB',
		legalName: 'Nordic Timber Aktiebolag',
		registrationNumber: '556677-8899',
		register: 'Bolagsverket',
		legalForm: 'Aktiebolag',
		incorporationDate: '2001-01-09T00:00:00.000Z',
		registrationDate: '2001-01-20T00:00:00.000Z',
		registeredAddress: address('Skogsvägen 4', null, 'Umeå', '903 29', 'Västerbotten', 'SE'),
		industry: { code: '16.10', label: 'Sawmilling and planing of wood' },
		officers: [
			{ name: 'Astrid Lindqvist', role: 'Verkställande direktör', dob: '1979-07-21', nationality: 'SE' },
			{ name: 'Lars Berg', role: 'Styrelseledamot', dob: '1958-01-04', nationality: 'SE' },
		],
		owners: [{ name: 'Astrid Lindqvist', type: 'PERSON', share: 60, country: 'SE' }],
		financials: { currency: 'SEK', year: 2023, revenue: 41000000, netIncome: 3900000, employees: 37 },
	}),
	company({
		companyId: 'IT-MI-2345678',
		name: 'Stark Logistics S.r.l.',
		tradingNames: ['Stark Logistics'],
		registrationNumber: 'MI-2345678',
		register: 'Registro delle Imprese di Milano',
		legalForm: 'Società a responsabilità limitata',
		incorporationDate: '2015-09-14T00:00:00.000Z',
		registrationDate: '2015-09-30T00:00:00.000Z',
		registeredAddress: address('Via Roma 10', null, 'Milano', '20121', 'MI', 'IT'),
		website: 'https://stark-logistics.example.it',
		industry: { code: '52.29', label: 'Other transportation support activities' },
		officers: [{ name: 'Giulia Rossi', role: 'Amministratore unico', dob: '1981-04-17', nationality: 'IT' }],
		owners: [{ name: 'Giulia Rossi', type: 'PERSON', share: 100, country: 'IT' }],
		financials: { currency: 'EUR', year: 2023, revenue: 2300000, netIncome: 95000, employees: 19 },
	}),
	company({
		companyId: 'FR-RCS-812345678',
		name: 'Café Lumière SARL',
		tradingNames: ['Café Lumière'],
		registrationNumber: '812 345 678',
		register: 'RCS Paris',
		legalForm: 'Société à responsabilité limitée',
		incorporationDate: '2016-05-02T00:00:00.000Z',
		registrationDate: '2016-05-10T00:00:00.000Z',
		registeredAddress: address('12 Rue de la Paix', null, 'Paris', '75002', 'Île-de-France', 'FR'),
		industry: { code: '56.10', label: 'Restaurants and mobile food service activities' },
		officers: [{ name: 'Élodie Martin', role: 'Gérante', dob: '1988-12-24', nationality: 'FR' }],
		owners: [{ name: 'Élodie Martin', type: 'PERSON', share: 100, country: 'FR' }],
		financials: { currency: 'EUR', year: 2023, revenue: 640000, netIncome: 41000, employees: 9 },
	}),
	company({
		companyId: 'GB-CH-09876543',
		name: 'Umbrella Dissolved Ltd',
		legalName: 'UMBRELLA DISSOLVED LIMITED',
		registrationNumber: '09876543',
		register: 'Companies House',
		status: 'dissolved',
		legalForm: 'Private limited company',
		nativeType: 'Private limited Company',
		incorporationDate: '2014-10-01T00:00:00.000Z',
		registrationDate: null,
		registeredAddress: address('1 Raccoon Road', null, 'Manchester', 'M1 1AA', null, 'GB'),
		industry: { code: '72.11', label: 'Research and experimental development on biotechnology' },
		officers: [{ name: 'Albert Wesker', role: 'Director (resigned)', dob: '1960-06-06', nationality: 'GB' }],
		financials: { currency: 'GBP', year: 2019, revenue: 0, netIncome: -45000, employees: 0 },
	}),
	company({
		companyId: 'US-NJ-7778889',
		name: 'Wayne Enterprises Inc.',
		legalName: 'Wayne Enterprises, Inc.',
		tradingNames: ['Wayne Enterprises', 'WayneCorp'],
		registrationNumber: '7778889',
		register: 'New Jersey Division of Revenue',
		legalForm: 'Corporation',
		nativeType: 'Domestic Profit Corporation',
		modeledType: 'PUBLIC_LIMITED_COMPANY',
		incorporationDate: '1939-05-01T00:00:00.000Z',
		registrationDate: '1939-05-01T00:00:00.000Z',
		registeredAddress: address('1007 Mountain Drive', null, 'Gotham', '07001', 'NJ', 'US'),
		businessAddress: address('Wayne Tower', '1 Wayne Plaza', 'Gotham', '07002', 'NJ', 'US'),
		website: 'https://wayne-enterprises.example.com',
		industry: { code: '30.30', label: 'Manufacture of air and spacecraft and related machinery' },
		officers: [
			{ name: 'Bruce Wayne', role: 'Chairman', dob: '1972-02-19', nationality: 'US' },
			{ name: 'Lucius Fox', role: 'Chief Executive Officer', dob: '1955-11-11', nationality: 'US' },
		],
		owners: [{ name: 'Bruce Wayne', type: 'PERSON', share: 52, country: 'US' }],
		financials: { currency: 'USD', year: 2023, revenue: 31000000000, netIncome: 2900000000, employees: 170000 },
	}),
]);

const COMPANY_BY_ID = new Map(COMPANIES.map((c) => [c.companyId, c]));

const normalise = (s) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** A registration number compared without spaces, dots, dashes and slashes, case-insensitively: "HRB 123456" = "hrb123456". */
const registrationKey = (s) => s.replace(/[\s./-]/g, '').toUpperCase();

/**
 * Companies whose name, legal name or a trading name contains every word of `name`
 * (case-insensitive), optionally restricted to `country` and to `registrationNumber`; best score first.
 */
function searchCompanies(name, country, registrationNumber) {
	const query = normalise(name);
	const words = query.split(' ');
	const results = [];
	for (const c of COMPANIES) {
		if (country && c.country !== country) continue;
		if (registrationNumber && registrationKey(c.registrationNumber) !== registrationKey(registrationNumber)) continue;
		const names = [c.name, c.legalName, ...c.tradingNames].map(normalise);
		const matching = names.filter((n) => words.every((w) => n.includes(w)));
		if (matching.length === 0) continue;
		const exact = matching.includes(query);
		const best = Math.min(...matching.map((n) => n.length));
		const score = exact ? 1 : Math.round((0.5 + (0.49 * query.length) / best) * 100) / 100;
		results.push({ company: c, score });
	}
	return results.sort((a, b) => b.score - a.score || a.company.name.localeCompare(b.company.name));
}

/** Document items (with linkToken) of a company; also reachable via /kyb/company/document/retrieve. */
function companyDocuments(c) {
	return [
		{
			documentId: `${c.companyId}-DOC-1`,
			name: 'Register extract',
			type: 'REGISTER_EXTRACT',
			format: 'application/pdf',
			date: '2024-01-15',
			linkToken: `lt-${c.companyId}-register-extract`,
		},
		{
			documentId: `${c.companyId}-DOC-2`,
			name: 'Articles of association',
			type: 'ARTICLES_OF_ASSOCIATION',
			format: 'application/pdf',
			date: c.incorporationDate.slice(0, 10),
			linkToken: `lt-${c.companyId}-articles`,
		},
	];
}

/** Transparency register items (beneficial owners), each with a linkToken. */
function companyTransparency(c) {
	return c.owners
		.filter((o) => o.type === 'PERSON' || o.type === 'TRUST')
		.map((o, i) => ({
			type: 'BENEFICIAL_OWNER',
			name: o.name,
			ownershipPercentage: o.share,
			country: o.country,
			register: `${c.country} transparency register`,
			linkToken: `lt-${c.companyId}-ubo-${i + 1}`,
		}));
}

/** The include-package sections for one company, keyed as they appear under data. */
const INCLUDE_SECTIONS = Object.freeze({
	officers: (c) => c.officers.map((o) => ({ ...o })),
	addresses: (c) => [
		{ type: 'REGISTERED', ...c.registeredAddress },
		{ type: 'BUSINESS', ...c.businessAddress },
	],
	ownerships: (c) => c.owners.map((o) => ({ ...o })),
	transparency: companyTransparency,
	documents: companyDocuments,
	financials: (c) => [{ ...c.financials }],
});

const INCLUDE_PACKAGES = Object.freeze(Object.keys(INCLUDE_SECTIONS));

/** linkToken -> {company, item} for every document and transparency item. */
const LINK_TOKENS = new Map();
for (const c of COMPANIES) {
	for (const item of [...companyDocuments(c), ...companyTransparency(c)]) LINK_TOKENS.set(item.linkToken, { company: c, item });
}

/** The data.company object of the details response (interface 2.3 plus observed extras). */
function companyDetails(c) {
	return {
		legalName: c.legalName,
		tradingNames: [...c.tradingNames],
		status: c.status,
		companyType: {
			native: { value: c.nativeType.value, language: c.nativeType.language, source: c.register },
			modeled: { value: c.modeledType, scheme: 'SANDBOX_COMPANY_TYPE', source: 'sandbox-model' },
		},
		incorporationDate: c.incorporationDate,
		registrationDate: c.registrationDate,
		country: c.country,
		registeredAddress: c.registeredAddress,
		businessAddress: c.businessAddress,
		identifiers: [{ scheme: 'REGISTRATION_NUMBER', value: c.registrationNumber, country: c.country }],
		industryCodes: [{ scheme: 'NACE', code: c.industry.code, label: c.industry.label }],
		website: c.website,
	};
}

const COUNTRIES = Object.freeze([
	{ countryName: 'Austria', countryCode: 'AT', states: ['Vienna', 'Tyrol', 'Styria'] },
	{ countryName: 'Belgium', countryCode: 'BE', states: ['Brussels', 'Flanders', 'Wallonia'] },
	{ countryName: 'Denmark', countryCode: 'DK', states: [] },
	{ countryName: 'Finland', countryCode: 'FI', states: [] },
	{ countryName: 'France', countryCode: 'FR', states: ['Île-de-France', 'Occitanie', 'Bretagne'] },
	{ countryName: 'Germany', countryCode: 'DE', states: ['Bavaria', 'Berlin', 'Hamburg', 'Hesse'] },
	{ countryName: 'Ireland', countryCode: 'IE', states: [] },
	{ countryName: 'Italy', countryCode: 'IT', states: ['Lombardy', 'Lazio', 'Tuscany'] },
	{ countryName: 'Netherlands', countryCode: 'NL', states: ['Noord-Holland', 'Zuid-Holland', 'Utrecht'] },
	{ countryName: 'Poland', countryCode: 'PL', states: ['Masovia', 'Lesser Poland'] },
	{ countryName: 'Spain', countryCode: 'ES', states: ['Madrid', 'Catalonia', 'Andalusia'] },
	{ countryName: 'Sweden', countryCode: 'SE', states: ['Stockholm', 'Västerbotten'] },
	{ countryName: 'Switzerland', countryCode: 'CH', states: ['Zurich', 'Geneva', 'Bern'] },
	{ countryName: 'United Kingdom', countryCode: 'GB', states: ['England', 'Scotland', 'Wales', 'Northern Ireland'] },
	{ countryName: 'United States', countryCode: 'US', states: ['California', 'Delaware', 'New Jersey', 'New York', 'Oregon'] },
]);

const flag = (code) => String.fromCodePoint(...[...code].map((ch) => 0x1f1e6 + ch.charCodeAt(0) - 65));

const PROFILE_NAMES = [
	'Acme Holdings', 'Acme Trading', 'Globex', 'Initech', 'Nordic Timber', 'Stark Logistics', 'Cafe Lumiere',
	'Wayne Enterprises', 'Umbrella', 'Hooli', 'Pied Piper', 'Vandelay Industries', 'Soylent', 'Cyberdyne Systems',
	'Tyrell', 'Oscorp', 'Massive Dynamic', 'Gringotts', 'Monarch Solutions', 'Dunder Mifflin', 'Bluth Company',
	'Prestige Worldwide', 'Wonka Industries',
];
const PROFILE_COUNTRIES = ['Germany', 'United Kingdom', 'United States', 'Netherlands', 'Sweden', 'Italy', 'France'];
const CODE_BY_COUNTRY = new Map(COUNTRIES.map((c) => [c.countryName, c.countryCode]));
const cycle = (list, i) => list[i % list.length];

/** 23 deterministic company profiles for GET /KYB/companyProfile (newest first). */
const COMPANY_PROFILES = Object.freeze(
	PROFILE_NAMES.map((searchText, i) => {
		const n = String(i + 1).padStart(3, '0');
		const countryName = cycle(PROFILE_COUNTRIES, i);
		const day = String((i % 28) + 1).padStart(2, '0');
		return {
			id: `kyb-profile-${n}`,
			requestId: `kyb-req-${n}`,
			searchText,
			countryName,
			countryFlag: flag(CODE_BY_COUNTRY.get(countryName)),
			name: `${searchText} ${cycle(['GmbH', 'Ltd', 'Inc.', 'B.V.', 'AB', 'S.r.l.', 'SARL'], i)}`,
			registrationNumber: `REG-${String(100000 + i * 7919)}`,
			registrationDate: `20${String(10 + (i % 14)).padStart(2, '0')}-0${(i % 9) + 1}-${day}`,
			type: cycle(['company', 'company', 'branch'], i),
			status: cycle(['active', 'active', 'active', 'inactive', 'dissolved'], i),
			riskLevel: cycle(['low', 'medium', 'high'], i),
			verificationStatus: cycle(['verified', 'pending', 'verified', 'failed'], i),
			companyFetchedDataStatus: cycle(['completed', 'completed', 'pending'], i),
			extensiveData: cycle([['officers', 'addresses'], ['officers'], [], ['financials', 'documents']], i),
			primarySource: true,
			secondarySource: i % 4 === 3,
			metaDetail: { source: 'sandbox', fetchedAt: `2024-03-${day}T09:00:00.000Z`, position: i + 1 },
		};
	}),
);

module.exports = {
	COMPANY_BY_ID,
	COMPANY_PROFILES,
	COUNTRIES,
	INCLUDE_PACKAGES,
	INCLUDE_SECTIONS,
	LINK_TOKENS,
	searchCompanies,
	companyDetails,
};

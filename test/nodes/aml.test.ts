import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { GENERATIONS, canonicalSha256, expectValidationError, items, playing, propertyOf, resourceRun, succeeded, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runAml = resourceRun(emulator, 'aml');
const CHECK = 'POST /aml/checkIndividual';
const REGISTER = 'POST /aml/ongoingMonitoring/registerIndividual';
const REMOVE = 'POST /aml/ongoingMonitoring/removeSearchProfile';

async function run(parameters: IDataObject, input?: IDataObject[]) {
	return await runAml(parameters as never, { json: input });
}

/** The run failed before anything was sent, naming the field's label, name and rule (item 1). */
async function expectRefused(parameters: IDataObject, ...parts: string[]) {
	await expectValidationError(emulator(), await run(parameters, [{ blank: '' }]), 0, ...parts);
}

const fingerprint = canonicalSha256;

/** The review delta of records nobody decided yet: every record new, each by its fingerprint. */
function delta(records: IDataObject[]) {
	const ids = records.map((r) => (typeof r.id === 'string' ? r.id : fingerprint(r)));
	return {
		fingerprints: Object.fromEntries(records.map((r, i) => [ids[i], fingerprint(r)])),
		newRecordIds: ids,
		changedRecordIds: [],
		needsReview: records.length > 0,
	};
}

/** The list answer's payload: un-enveloped in g2, in `data` in g3. */
const payload = (json: IDataObject, generation: string) => (generation === 'g3' ? (json.data as IDataObject) : json);

describe.each(GENERATIONS)('AML: Check Individual against %s', (generation) => {
	playing(emulator, generation);

	it('name only: sends {name}; the list answer gets screeningSummary {shape: "list", isHit, totalHits, hitsBySourceType}', async () => {
		const out = succeeded(await run({ operation: 'checkIndividual', name: 'Max Mixed' }));
		expect(await emulator().bodies(CHECK)).toEqual([{ name: 'Max Mixed' }]);
		const list = payload(out[0].json, generation);
		expect((list.foundRecords as IDataObject[]).map((r) => r.id)).toEqual(['AML-SAN-0101', 'AML-PEP-0101', 'AML-CRI-0101']);
		expect(list).toMatchObject({ timestamp: expect.any(String), totalHits: 3 });
		if (generation === 'g3') expect(out[0].json.status).toBe(true);
		expect(out[0].json.screeningSummary).toEqual({
			shape: 'list',
			isHit: true,
			totalHits: 3,
			hitsBySourceType: { SANCTION: 1, PEP: 1, CRIMINAL: 1 },
			...delta(list.foundRecords as IDataObject[]),
		});
	});

	it('search constraints send the newer form {name, dateOfBirth, countries, datasets, threshold, matchingMode}; both answers are read', async () => {
		const out = succeeded(await run({
			operation: 'checkIndividual',
			name: 'Viktor Sanctioned',
			dob: '1970/01/15',
			additionalFields: { countries: 'by, ge', datasets: ' OFAC-SDN ,EU-CFSP', threshold: 0.9, matchingMode: 'exact' },
		}));
		expect(await emulator().bodies(CHECK)).toEqual([
			{ name: 'Viktor Sanctioned', datasets: 'OFAC-SDN,EU-CFSP', threshold: 0.9, matchingMode: 'exact', countries: 'BY,GE', dateOfBirth: '1970-01-15' },
		]);
		const [json] = out.map((i) => i.json);
		if (generation === 'g3') {
			// The newer generation answers with the best-matching profile: kept whole, its verdict read where it states one.
			expect(json.data).toMatchObject({ matchFound: true, matchScore: 1, profile: { id: 'AML-SAN-0001', sourceId: 'OFAC-SDN' } });
			expect(json.screeningSummary).toEqual({ shape: 'profile', isHit: true, ...delta([(json.data as IDataObject).profile as IDataObject]) });
		} else {
			// The older generation knows no constraints: it answers the list, and the node reads it as a list.
			expect((json.foundRecords as IDataObject[]).map((r) => r.id)).toEqual(['AML-SAN-0001', 'AML-SAN-0002', 'AML-SAN-0003']);
			expect(json.screeningSummary).toMatchObject({ shape: 'list', isHit: true, totalHits: 3 });
		}
	});

	it('with search constraints a year alone is sent as dateOfBirth; a profile answer without a match is no hit', async () => {
		const out = succeeded(await run({
			operation: 'checkIndividual',
			name: 'Paula Politician',
			dob: '={{ 1965 }}',
			additionalFields: { countries: 'NL' },
		}));
		expect(await emulator().bodies(CHECK)).toEqual([{ name: 'Paula Politician', countries: 'NL', dateOfBirth: '1965' }]);
		const summary = out[0].json.screeningSummary as IDataObject;
		if (generation === 'g3') {
			expect((out[0].json.data as IDataObject).matchFound).toBe(false);
			expect(summary).toEqual({ shape: 'profile', isHit: false, ...delta([]) });
		} else {
			expect(summary).toMatchObject({ shape: 'list', isHit: true, totalHits: 1 });
		}
	});

	it('One Item per Record: one item per record of the list, the search and the summary beside each', async () => {
		const out = succeeded(await run({ operation: 'checkIndividual', name: '  max   MIXED ', options: { splitRecords: true } }));
		expect(out.map((i) => [i.json.id, i.pairedItem])).toEqual([
			['AML-SAN-0101', { item: 0 }],
			['AML-PEP-0101', { item: 0 }],
			['AML-CRI-0101', { item: 0 }],
		]);
		for (const item of out) {
			expect(item.json.search).toEqual({ timestamp: expect.any(String), totalHits: 3, name: '  max   MIXED ' });
			expect(item.json.screeningSummary).toMatchObject({ shape: 'list', isHit: true, totalHits: 3 });
		}
	});
});

describe.each(GENERATIONS)('AML: Check Individual with Decided Records against %s', (generation) => {
	playing(emulator, generation);
	const check = async (decidedRecords: unknown, name = 'Viktor Sanctioned') =>
		await run({ operation: 'checkIndividual', name, options: { decidedRecords } });
	const firstAnswer = async () => {
		const { items: out } = await check('{}');
		return out[0].json.screeningSummary as IDataObject;
	};

	it('everything decided as it is now: nothing to review, and the verdict still a hit', async () => {
		const { fingerprints } = await firstAnswer();
		const out = succeeded(await check(JSON.stringify(fingerprints)));
		expect(out[0].json.screeningSummary).toMatchObject({ isHit: true, totalHits: 3, newRecordIds: [], changedRecordIds: [], needsReview: false });
	});

	it('a list of {id, fingerprint} from an expression: an undecided record is new, one decided in another content changed', async () => {
		const { fingerprints } = (await firstAnswer()) as { fingerprints: Record<string, string> };
		const decided = [
			{ id: 'AML-SAN-0001', fingerprint: fingerprints['AML-SAN-0001'].toUpperCase() },
			{ id: 'AML-SAN-0002', fingerprint: fingerprint({ id: 'AML-SAN-0002', positions: ['an earlier position'] }) },
		];
		const { items: out } = await check(`={{ ${JSON.stringify(decided)} }}`);
		expect(out[0].json.screeningSummary).toMatchObject({ isHit: true, newRecordIds: ['AML-SAN-0003'], changedRecordIds: ['AML-SAN-0002'], needsReview: true });
	});

	it("a record's fingerprint is its content's: the same record with its keys in another order and other spacing has the same one", async () => {
		const records = (payload((await run({ operation: 'checkIndividual', name: 'Max Mixed' })).items[0].json, generation).foundRecords as IDataObject[]);
		const reordered = records.map((r) => Object.fromEntries(Object.entries(r).reverse()));
		const answer = { timestamp: new Date().toISOString(), totalHits: 3, foundRecords: reordered };
		await emulator().configure({ failures: [{ route: CHECK, status: 200, raw: JSON.stringify(answer, null, 3), contentType: 'application/json' }] });
		const { items: out } = await check(JSON.stringify(delta(records).fingerprints), 'Max Mixed');
		expect(out[0].json.screeningSummary).toMatchObject({ isHit: true, newRecordIds: [], changedRecordIds: [], needsReview: false });
	});
});

describe('AML: Check Individual refuses before sending', () => {
	it('Datasets without Countries', async () => {
		const message = 'Countries (countries) is required when Datasets, Threshold or Matching Mode is set';
		await expectRefused({ operation: 'checkIndividual', name: 'A B', additionalFields: { datasets: 'OFAC-SDN' } }, message);
	});

	it.each([
		['not JSON', 'or a list of {"id", "fingerprint"}, as JSON, got "not JSON"'],
		['42', '(decidedRecords) must be an object of record id to fingerprint'],
		['{"AML-SAN-0001": "abc"}', '("AML-SAN-0001" is not)'],
		['[{"id": "AML-SAN-0001"}]', '(entry 1 is not)'],
		['[{"fingerprint": "' + 'a'.repeat(64) + '"}]', '(entry 1 is not)'],
	])('Decided Records that are not records: %s', async (decidedRecords, message) => {
		await expectRefused({ operation: 'checkIndividual', name: 'Jane Doe', options: { decidedRecords } }, 'Decided Records', message);
	});
});

describe('AML: Check Individual answers that are no screening result', () => {
	it('a profile that states no verdict is kept whole, without isHit', async () => {
		const profile = { status: true, data: { bestMatch: { name: 'Viktor Sanctioned', datasets: ['OFAC-SDN'] }, score: 0.93 } };
		await emulator().configure({ failures: [{ route: CHECK, status: 200, raw: JSON.stringify(profile), contentType: 'application/json' }] });
		const out = succeeded(await run({ operation: 'checkIndividual', name: 'Viktor Sanctioned', additionalFields: { countries: 'BY' } }));
		// A record without an id is named by its fingerprint.
		expect(out[0].json).toEqual({ ...profile, screeningSummary: { shape: 'profile', ...delta([profile.data.bestMatch]) } });
	});

	it.each([
		// {}, an HTML page and an empty body: request-path.contract.test's rows for this operation.
		['{"status":true,"data":{}}', 'application/json'],
		['{"status":true}', 'application/json'],
		['{"error":"Invalid countries","matchFound":false}', 'application/json'],
		['{"status":false,"message":"Screening failed"}', 'application/json'],
	])('%p (%s) is an error, never "no hit"', async (raw, contentType) => {
		await emulator().configure({ failures: [{ route: CHECK, status: 200, raw, contentType }] });
		const { items: out, error } = await run({ operation: 'checkIndividual', name: 'Jane Nobody' });
		expect(out).toEqual([]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toMatch(/^Check Individual got an answer that is not a result \(a non-empty JSON object without an error\) \(HTTP 200\): /);
	});
});

describe.each(GENERATIONS)('AML: Register Individual and Remove Search Profile against %s', (generation) => {
	playing(emulator, generation);

	it('sends names as one text, gender lower case, dob yyyy/mm/dd and fuzzySearch as "true"; outputs the answer and the profileId', async () => {
		const out = succeeded(await run({
			operation: 'registerIndividual',
			profileId: 'customer-4711',
			names: 'Jane Doe',
			additionalFields: { gender: 'female', dob: '1980-04-30', fuzzySearch: true },
		}));
		expect(await emulator().bodies(REGISTER)).toEqual([{ profileId: 'customer-4711', names: 'Jane Doe', gender: 'female', dob: '1980/04/30', fuzzySearch: 'true' }]);
		expect(out[0].json).toEqual(
			generation === 'g3'
				? { status: true, data: { profileId: 'customer-4711', registeredAt: expect.any(String) }, profileId: 'customer-4711' }
				: { success: true, profileId: 'customer-4711' },
		);
	});

	it('sends only what is set: fuzzySearch "false" once added, searchAll never beside names', async () => {
		succeeded(await run({ operation: 'registerIndividual', profileId: '={{ $json.id }}', names: 'Jane Doe', additionalFields: { fuzzySearch: false } }, [
			{ id: 'p-1' },
		]));
		await run({ operation: 'registerIndividual', profileId: 'p-2', names: 'John Roe' });
		expect(await emulator().bodies(REGISTER)).toEqual([
			{ profileId: 'p-1', names: 'Jane Doe', fuzzySearch: 'false' },
			{ profileId: 'p-2', names: 'John Roe' },
		]);
	});

	it('removes the profile; the older generation answers with no body', async () => {
		await run({ operation: 'registerIndividual', profileId: 'p-gone', names: 'Jane Doe' });
		const out = succeeded(await run({ operation: 'removeSearchProfile', profileId: 'p-gone' }));
		expect(await emulator().bodies(REMOVE)).toEqual([{ profileId: 'p-gone' }]);
		expect(out[0].json).toEqual(generation === 'g3' ? { status: true, data: { profileId: 'p-gone', removed: true } } : { success: true });
	});
});

describe('AML: Register Individual registers a Profile ID once per run', () => {
	const register = { operation: 'registerIndividual', profileId: '={{ $json.id }}', names: '={{ $json.name }}' };
	const book = [
		{ id: 'c-1', name: 'Jane Doe' },
		{ id: 'c-2', name: 'John Roe' },
		{ id: 'c-1', name: 'Jane Doe-Smith' },
	];

	it('a second item with the same Profile ID refuses the run before anything is sent, naming both items', async () => {
		await expectValidationError(emulator(), await run(register, book), 2, `Profile ID (profileId) "c-1" is item 1's too: one Profile ID names one monitoring profile`);
	});

	it('with Continue On Fail the second item is its error item and the others are registered', async () => {
		const { items: out, error } = await runAml(register as never, { input: items(...book), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(await emulator().bodies(REGISTER)).toEqual([
			{ profileId: 'c-1', names: 'Jane Doe' },
			{ profileId: 'c-2', names: 'John Roe' },
		]);
		expect(out.map((i) => [i.json.profileId, i.pairedItem])).toEqual([['c-1', { item: 0 }], ['c-2', { item: 1 }], [undefined, { item: 2 }]]);
		expect(out[2].json.error).toContain(`"c-1" is item 1's too`);
	});
});

describe('AML parameters', () => {
	it('shows Names only while Search All Instead of Names is off, and the constraints in Additional Fields', () => {
		const names = propertyOf('aml', 'registerIndividual', 'names');
		expect(names.displayOptions).toEqual({ show: { resource: ['aml'], operation: ['registerIndividual'], searchAll: [false] } });
		const additional = propertyOf('aml', 'checkIndividual', 'additionalFields');
		expect((additional.options as Array<{ name: string }>).map((o) => o.name)).toEqual(['countries', 'datasets', 'matchingMode', 'threshold']);
	});
});

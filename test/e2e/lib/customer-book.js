'use strict';
// The customer book recipe (examples/customer-book-postgres.json) against a real Postgres, for the
// queue e2e and the bench: the table created in a database of its own (with the SQL of the recipe's
// sticky note), N customers seeded (hits, a refused one, the rest clean), the recipe created and
// published with its two credentials, a night run, and the audit of the table against what the
// emulator was asked and answers.

const fs = require('node:fs');
const path = require('node:path');

const { findAmlRecords, AML_ERROR_NAMES, normaliseName } = require('../../../sandbox/data/aml');
const { AML_ROUTE } = require('../../../bench/lib/emulator');
const { sandboxCredentials } = require('./example-server');
const { waitUntil } = require('./util');

const RECIPE_FILE = path.resolve(__dirname, '..', '..', '..', 'examples', 'customer-book-postgres.json');
const PG_MODULE = path.resolve(__dirname, '..', 'n8n-v2', 'node_modules', 'pg');
const NIGHT_TRIGGER = 'Run the Book Now';
const DATABASE = 'customer_book';

const readRecipe = () => JSON.parse(fs.readFileSync(RECIPE_FILE, 'utf8'));

/** The CREATE TABLE a user copies from the recipe's overview note. */
function tableSql(recipe = readRecipe()) {
	const note = recipe.nodes.find((n) => n.name === 'Note: Overview');
	const sql = /```sql\n([\s\S]*?)```/.exec(note.parameters.content);
	if (!sql) throw new Error('the recipe\'s overview note has no ```sql block');
	return sql[1];
}

/**
 * Who is in the book: every 97th customer has a name on the emulator's lists (with or without a
 * date of birth that narrows the hits), customer 500 of every thousand is one the API refuses
 * (403), everyone else a clean, unique name.
 */
const LISTED = [
	['Viktor Sanctioned', '1970/01/15'],
	['Viktor Sanctioned', '1982/03/02'],
	['Paula Politician', null],
	['Carl Criminal', '1980/11/03'],
	['Max Mixed', '1975/07/07'],
	['Viktor S.', null],
];
const REFUSED = 'Forbidden Person';

function customerOf(id) {
	if (id % 1000 === 500) return { id, name: REFUSED, dob: null };
	if (id % 97 === 0) {
		const [name, dob] = LISTED[(id / 97) % LISTED.length];
		return { id, name, dob };
	}
	const day = String((id % 28) + 1).padStart(2, '0');
	const month = String((id % 12) + 1).padStart(2, '0');
	return { id, name: `Clean Customer ${id}`, dob: `${1950 + (id % 50)}/${month}/${day}` };
}

/** What the emulator answers for one customer: { refused } or { verdict, hits, hitIds }. */
function expectedAnswer({ name, dob }) {
	const refused = AML_ERROR_NAMES[normaliseName(name)];
	if (refused) return { refused };
	const records = findAmlRecords(name, dob ?? undefined);
	return { verdict: records.length ? 'hit' : 'no hit', hits: records.length, hitIds: records.map((r) => r.id).join(',') };
}

/** A pg client (n8n's own copy of the driver) on `database`. */
async function connect(postgres, database) {
	const { Client } = require(PG_MODULE);
	const client = new Client({ host: postgres.host, port: postgres.port, user: postgres.user, database });
	await client.connect();
	return client;
}

/**
 * Creates the book's database (beside n8n's) when missing and the table anew, seeds customers
 * 1..count and returns { client (on the book's database), customers, close() }.
 */
async function createBook(postgres, { count, database = DATABASE }) {
	const admin = await connect(postgres, postgres.database);
	try {
		const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
		if (!rowCount) await admin.query(`CREATE DATABASE ${database}`);
	} finally {
		await admin.end();
	}
	const client = await connect(postgres, database);
	await client.query('DROP TABLE IF EXISTS customers');
	await client.query(tableSql());
	const customers = Array.from({ length: count }, (_, i) => customerOf(i + 1));
	for (let i = 0; i < customers.length; i += 5000) {
		const chunk = customers.slice(i, i + 5000);
		await client.query(
			'INSERT INTO customers (id, name, dob) SELECT * FROM unnest($1::bigint[], $2::text[], $3::date[])',
			[chunk.map((c) => c.id), chunk.map((c) => c.name), chunk.map((c) => (c.dob ? c.dob.replace(/\//g, '-') : null))],
		);
	}
	return { client, customers, database, close: () => client.end() };
}

/**
 * Creates the recipe (the book's, or another built on it) in the running n8n `server` with the
 * sandbox credential (pointed at the emulator), a Postgres credential for the book's database and
 * any `credentials` more, its Night Settings set to `settings` (pageUrl, leaseSeconds, pageSize), and
 * publishes it. Returns the workflow id.
 */
async function createRecipe({ server, emulatorBaseUrl, postgres, database = DATABASE, settings, recipe = readRecipe(), credentials = [] }) {
	const [apiCredential] = sandboxCredentials(emulatorBaseUrl);
	const pgRef = recipe.nodes.find((n) => n.credentials?.postgres).credentials.postgres;
	const nightSettings = recipe.nodes.find((n) => n.name === 'Night Settings');
	for (const assignment of nightSettings.parameters.assignments.assignments) {
		if (settings[assignment.name] !== undefined) assignment.value = settings[assignment.name];
	}
	await server.ensureLoggedIn();
	const { workflowIds } = await server.createCredentialsAndWorkflows({
		credentials: [
			apiCredential,
			{ ...pgRef, type: 'postgres', data: { host: postgres.host, port: postgres.port, database, user: postgres.user, password: '', ssl: 'disable' } },
			...credentials,
		],
		workflows: [recipe],
	});
	await server.activateWorkflow(workflowIds[0]);
	return workflowIds[0];
}

/** One night run from the recipe's manual trigger (on the main); resolves with its finished execution, which only started the pages (waitForNight tells when they are done). */
const runNight = (server, workflowId, { timeoutMs = 30 * 60 * 1000 } = {}) => server.runWorkflow(workflowId, { trigger: NIGHT_TRIGGER, timeoutMs });

/** The table's progress: rows screened, refused, claimed but not written yet (live or lapsed lease), never claimed. */
async function progress(client) {
	const { rows } = await client.query(`SELECT
		count(*) FILTER (WHERE screened_at IS NOT NULL)::int AS screened,
		count(*) FILTER (WHERE screened_at IS NULL AND error IS NOT NULL)::int AS refused,
		count(*) FILTER (WHERE screened_at IS NULL AND error IS NULL AND lease_until > now())::int AS leased,
		count(*) FILTER (WHERE screened_at IS NULL AND error IS NULL AND lease_until <= now())::int AS lapsed,
		count(*) FILTER (WHERE claims = 0)::int AS unclaimed,
		count(*)::int AS total
		FROM customers`);
	return rows[0];
}

/** The book database's clock: a night started after this instant tries each customer at or after it. */
async function dbNow(client) {
	const { rows } = await client.query('SELECT now() AS now');
	return rows[0].now;
}

/**
 * What a night started at `since` has left: `due` (the recipe's Claim Page condition: not screened
 * within 20 hours, not tried since `since`, no live lease: customers no page has claimed yet, or
 * whose page died and whose lease has lapsed) and `leased` (a page is screening them now).
 */
async function nightLeft(client, since) {
	const { rows } = await client.query(
		`SELECT
		count(*) FILTER (WHERE (screened_at IS NULL OR screened_at < now() - interval '20 hours')
			AND (attempted_at IS NULL OR attempted_at < $1::timestamptz)
			AND (lease_until IS NULL OR lease_until < now()))::int AS due,
		count(*) FILTER (WHERE lease_until > now())::int AS leased
		FROM customers`,
		[since],
	);
	return rows[0];
}

/**
 * Waits until the night started at `since` is over, as the table tells it (the night run only posts
 * the pages; n8n runs them as its concurrency allows): nobody due, nobody leased. Throws after
 * `timeoutMs` with what is left.
 */
async function waitForNight(client, since, { timeoutMs = 30 * 60 * 1000, intervalMs = 1000 } = {}) {
	let left;
	const over = async () => {
		left = await nightLeft(client, since);
		return left.due === 0 && left.leased === 0 ? left : null;
	};
	try {
		return await waitUntil('the end of the night', over, { timeoutMs, intervalMs });
	} catch (error) {
		error.message += `: ${JSON.stringify(left)}`;
		throw error;
	}
}

/**
 * Every POST /aml/checkIndividual the emulator saw: read now and then (`poll()`),
 * since the emulator keeps only its last 20,000 requests; entries are told apart by their seq.
 */
function requestTally(control) {
	const seen = new Map(); // seq -> { name, status, at }
	return {
		async poll() {
			for (const entry of await control.requests(AML_ROUTE)) {
				if (!seen.has(entry.seq)) seen.set(entry.seq, { name: entry.body?.name, status: entry.status, at: Date.parse(entry.receivedAt) });
			}
		},
		/** Answered requests (2xx, and the refusals' 4xx) by name; 429s and 5xx are retried, not answers. */
		byName() {
			const out = new Map();
			for (const e of seen.values()) {
				if (e.status === 429 || e.status >= 500) continue;
				if (!out.has(e.name)) out.set(e.name, []);
				out.get(e.name).push(e);
			}
			return out;
		},
		/** Per `bucketMs` from `fromMs`: requests the API answered (not 429) and refused with 429. */
		timeline(fromMs, bucketMs) {
			const buckets = [];
			for (const e of seen.values()) {
				const i = Math.max(0, Math.floor((e.at - fromMs) / bucketMs));
				while (buckets.length <= i) buckets.push({ answered: 0, refused: 0 });
				buckets[i][e.status === 429 ? 'refused' : 'answered']++;
			}
			return buckets;
		},
	};
}

/**
 * The audit: lost (neither screened nor refused), written to the wrong row (verdict, hits or hit ids
 * other than the emulator answers for the row's name and date of birth), refused rows and why,
 * rows still leased, and the customers answered more than once (names shared by several customers
 * count as one group: answered more often than they have customers; the refused name apart).
 * `tally` must have been polled after the run.
 */
async function auditBook({ client, customers, tally }) {
	const { rows } = await client.query('SELECT id, name, verdict, hits, hit_ids, error, screened_at, lease_until, claims FROM customers ORDER BY id');
	const byId = new Map(customers.map((c) => [c.id, c]));
	const lost = [];
	const wrongRow = [];
	const refused = [];
	const leased = [];
	for (const row of rows) {
		const id = Number(row.id);
		const expected = expectedAnswer(byId.get(id));
		if (row.lease_until) leased.push(id);
		if (expected.refused) {
			if (!row.error) lost.push(id);
			else refused.push({ id, name: row.name, error: row.error });
			continue;
		}
		if (!row.screened_at) {
			lost.push(id);
			continue;
		}
		if (row.verdict !== expected.verdict || row.hits !== expected.hits || (row.hit_ids ?? '') !== expected.hitIds) {
			wrongRow.push({ id, name: row.name, written: { verdict: row.verdict, hits: row.hits, hitIds: row.hit_ids }, expected });
		}
	}
	const customersByName = new Map();
	for (const c of customers) customersByName.set(c.name, (customersByName.get(c.name) ?? 0) + 1);
	const asked = tally.byName();
	const askedTwice = [];
	let extraRequests = 0;
	for (const [name, n] of customersByName) {
		if (name === REFUSED) continue; // tried once per run that claims it: counted apart
		const requests = asked.get(name) ?? [];
		if (requests.length > n) {
			askedTwice.push({ name, customers: n, requests: requests.length, at: requests.map((r) => r.at) });
			extraRequests += requests.length - n;
		}
	}
	const claims = {};
	for (const row of rows) claims[row.claims] = (claims[row.claims] ?? 0) + 1;
	return {
		total: rows.length,
		screened: rows.filter((r) => r.screened_at).length,
		lost,
		wrongRow,
		refused,
		leased,
		askedTwice,
		extraRequests,
		refusedRequests: (asked.get(REFUSED) ?? []).length,
		claims,
		rows,
	};
}

module.exports = { connect, createBook, readRecipe, createRecipe, runNight, dbNow, nightLeft, waitForNight, progress, requestTally, auditBook, customerOf, expectedAnswer, tableSql, NIGHT_TRIGGER, DATABASE, REFUSED };

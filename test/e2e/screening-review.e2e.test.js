'use strict';
// examples/screening-review.json in n8n 2.40.7 against the emulator and a real Postgres, three nights
// run from its manual trigger: a book of 1,000 customers, 20 of them on the lists, each hit with
// records no other customer matches. Night 1 asks 20 reviews by e-mail; the test answers each form
// as a reviewer's browser does and the decisions are stored. Night 2, nothing changed: no review,
// the verdicts still hits. Then the emulator's lists change two decided records and add three:
// exactly those five come back, one review each. One evidence row per customer per night, each
// answer's responseSha256 and requestSha256 recomputed from what is stored, and the recipe's audit
// query names a tampered row and the row after a removed one. (n8n 2.x only: 1.x has no custom form.)
//
//   npm run build && N8N_E2E_VERSIONS=v2 node --test test/e2e/screening-review.e2e.test.js

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { bodyHash } = require('../../dist/nodes/shared/responses/canonical-json');
const { connect, createRecipe, dbNow, runNight, tableSql, waitForNight } = require('./lib/customer-book');
const { createInstance, nodeOutput } = require('./lib/instance');
const { startPostgres } = require('./lib/queue');
const { startSmtpSink, REVIEWER_USER_AGENT } = require('./lib/smtp-sink');
const { defaultLog, emulatorControl, freshFetch, waitUntil, e2eVersions } = require('./lib/util');
const { readExample } = require('./lib/workflows');

const RECIPE = readExample('screening-review.json');
const noteSql = (name) => /```sql\n([\s\S]*?)```/.exec(RECIPE.nodes.find((n) => n.name === name).parameters.content)[1];
const AUDIT_SQL = noteSql('Note: Audit');
// The docs' answer to an auditor asking about one customer ($1): the first sql block of docs/evidence-and-review.md.
const EVIDENCE_DOC = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'evidence-and-review.md'), 'utf8');
const AUDITOR_SQL = /```sql\n([\s\S]*?)```/.exec(EVIDENCE_DOC)[1];
const BOOK = 1000;
const REFUSED = 999; // a customer the API refuses (403): its error on its row, no evidence
const REVIEWER = 'Erika Reviewer';
const log = (message) => defaultLog(`[screening-review] ${message}`);

/** The 20 customers on the lists (every 50th), with the records only they match. */
const HITS = new Map([
	[50, ['Viktor Sanctioned', '1970/01/15', ['AML-SAN-0001', 'AML-SAN-0002']]],
	[100, ['Viktor Sanctioned', '1982/03/02', ['AML-SAN-0003']]],
	[150, ['Paula Politician', '1965/05/20', ['AML-PEP-0001']]],
	[200, ['Carl Criminal', '1980/11/03', ['AML-CRI-0001']]],
	[250, ['Max Mixed', '1975/07/07', ['AML-SAN-0101', 'AML-PEP-0101', 'AML-CRI-0101']]],
]);
const LISTED = []; // records added to the emulator's lists before night 1: customers 300 ... 1000
for (let k = 6; k <= 20; k++) {
	const id = `AML-TST-${String(k).padStart(4, '0')}`;
	HITS.set(50 * k, [`Listed Person ${k}`, `1961/02/${String(k).padStart(2, '0')}`, [id]]);
	LISTED.push({ id, sourceType: ['SANCTION', 'PEP', 'CRIMINAL'][k % 3], sourceId: 'TEST-LIST', name: `Listed Person ${k}`, dateOfBirth: [`1961/02/${String(k).padStart(2, '0')}`] });
}
const customer = (id) => {
	if (id === REFUSED) return { id, name: 'Forbidden Person', dob: '1971/09/09' };
	const [name, dob] = HITS.get(id) ?? [`Clean Customer ${id}`, `${1950 + (id % 50)}/${String((id % 12) + 1).padStart(2, '0')}/${String((id % 28) + 1).padStart(2, '0')}`];
	return { id, name, dob };
};
/** The lists' changes before night 3: two decided records change, three records are new. */
const CHANGES = [
	{ id: 'AML-SAN-0003', positions: ['Arms broker, Example Holdings (2025-)'] },
	{ id: 'AML-TST-0010', sourceId: 'UN-SC' },
	{ id: 'AML-SAN-0901', sourceType: 'SANCTION', sourceId: 'UK-OFSI', name: 'Clean Customer 333' },
	{ id: 'AML-PEP-0902', sourceType: 'PEP', pepType: 'MINISTER', sourceId: 'PEP-GLOBAL', name: 'Clean Customer 777' },
	{ id: 'AML-CRI-0903', sourceType: 'CRIMINAL', sourceId: 'EUROPOL-MOST-WANTED', name: 'Paula Politician', dateOfBirth: ['1965/05/20'] },
];
const COME_BACK = { 100: ['AML-SAN-0003'], 500: ['AML-TST-0010'], 333: ['AML-SAN-0901'], 777: ['AML-PEP-0902'], 150: ['AML-CRI-0903'] };
/** What the reviewer decides: true matches for a few records, an escalation, false positives otherwise. */
const DECIDE = { 'AML-CRI-0001': 'true match', 'AML-SAN-0101': 'true match', 'AML-PEP-0101': 'escalate', 'AML-SAN-0901': 'true match' };

describe('examples/screening-review.json in a running n8n v2: evidence, reviews decided once, changed lists', { skip: !e2eVersions().includes('v2') && 'n8n 2.x only (custom review form)', timeout: 20 * 60 * 1000 }, () => {
	let postgres;
	let db;
	let sandbox;
	let smtp;
	let instance;
	let server;
	let workflowId;
	const nights = [];
	const crm = []; // record ids that left on To CRM

	before(async () => {
		[postgres, sandbox, smtp] = await Promise.all([startPostgres({ log }), startSandbox({ port: 0, host: '127.0.0.1' }), startSmtpSink()]);
		db = await connect(postgres, postgres.database);
		await db.query(tableSql(RECIPE));
		const book = Array.from({ length: BOOK }, (_, i) => customer(i + 1));
		await db.query('INSERT INTO customers (id, name, dob) SELECT * FROM unnest($1::bigint[], $2::text[], $3::date[])', [book.map((c) => c.id), book.map((c) => c.name), book.map((c) => c.dob.replace(/\//g, '-'))]);
		await emulatorControl(sandbox.url, 'POST', 'aml/records', { records: LISTED });
		instance = await createInstance('v2', { name: 'screening-review', log });
		server = await instance.startServer();
		const smtpCredential = { id: 'smtp-reviewer', name: "SMTP (reviewer's mailbox)", type: 'smtp', data: { host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, user: '', password: '' } };
		const settings = { pageUrl: `${server.url}/webhook/screening-review/page` };
		workflowId = await createRecipe({ server, emulatorBaseUrl: sandbox.baseUrl, postgres, database: postgres.database, settings, recipe: RECIPE, credentials: [smtpCredential] });
	}, { timeout: 10 * 60 * 1000 });

	after(async () => {
		await db?.end();
		await smtp?.close();
		await sandbox?.close();
		await instance?.destroy();
		await postgres?.stop();
	}, { timeout: 2 * 60 * 1000 });

	/**
	 * One night from the recipe's manual trigger: over when the table says so (nobody due or leased) and
	 * every execution it started has ended or waits for a person. Returns its new executions and time.
	 */
	async function night() {
		const started = Date.now();
		await db.query("UPDATE customers SET screened_at = screened_at - interval '1 day'"); // a day has passed
		const seen = new Set((await server.listExecutions(workflowId, { limit: 500 })).map((e) => e.id));
		const since = await dbNow(db);
		await runNight(server, workflowId);
		await waitForNight(db, since, { timeoutMs: 5 * 60 * 1000 });
		let fresh;
		const settled = async () => {
			fresh = (await server.listExecutions(workflowId, { limit: 500 })).filter((e) => !seen.has(e.id));
			return fresh.every((e) => !['new', 'running'].includes(e.status));
		};
		await waitUntil('the pages and the reviews they start', settled, { timeoutMs: 3 * 60 * 1000, intervalMs: 500 });
		const result = { executions: fresh, waiting: fresh.filter((e) => e.status === 'waiting'), ms: Date.now() - started };
		assert.deepEqual(fresh.filter((e) => !['success', 'waiting'].includes(e.status)), [], 'no execution failed');
		log(`night ${nights.length + 1}: ${result.ms} ms, ${fresh.length} executions, ${result.waiting.length} reviews waiting`);
		nights.push(result);
		return result;
	}

	/**
	 * Answers one review e-mail as the reviewer's browser does: opens the form behind its button, reads
	 * the records it asks about, submits a decision and a reason for each and the reviewer's name.
	 * Returns the customer's id, the record ids asked about and the form; the review has ended by then.
	 */
	async function answer(mail) {
		const url = smtp.links(mail).approve;
		const executionId = new URL(url).pathname.split('/')[2];
		const browser = { 'user-agent': REVIEWER_USER_AGENT };
		const opened = await freshFetch(url, { headers: browser });
		assert.equal(opened.status, 200);
		const form = await opened.text();
		const fields = new Map([...form.matchAll(/<label class='form-label[^']*' for='(field-\d+)'>([^<]*)<\/label>/g)].map((m) => [m[2], m[1]]));
		const asked = [...form.matchAll(/<select id='(field-\d+)'/g)].map((m) => [...fields].find(([, field]) => field === m[1])[0]);
		const body = new FormData();
		for (const m of form.matchAll(/<input type="hidden" id="(field-\d+)" name="field-\d+" value="([^"]*)"/g)) body.append(m[1], m[2]);
		for (const id of asked) {
			body.append(fields.get(id), DECIDE[id] ?? 'false positive');
			body.append(fields.get(`Reason for ${id}`), DECIDE[id] ? `${id}: same person (date and place of birth)` : `${id}: another person (date of birth differs)`);
		}
		body.append(fields.get('Your name'), REVIEWER);
		const submitted = await freshFetch(url, { method: 'POST', body, headers: browser });
		assert.equal(submitted.status, 200, await submitted.text());
		const review = await server.waitForExecution(executionId);
		assert.equal(review.status, 'success', review.data?.resultData?.error?.message);
		crm.push(...(nodeOutput(review, 'To CRM') ?? []).map((d) => d.record_id));
		const customerId = Number(nodeOutput(review, 'Review Requested')[0].customerId);
		return { customerId, asked, form };
	}

	/** The `count` reviews of a night, answered at once: { customer id: record ids asked about }, and their forms. */
	async function answerAll(count) {
		const mails = [];
		for (let i = 0; i < count; i++) mails.push(await smtp.nextMessage(() => true, { timeoutMs: 30000 }));
		await assert.rejects(smtp.nextMessage(() => true, { timeoutMs: 1000 }), /no matching e-mail/, 'no more review e-mails');
		const answered = await Promise.all(mails.map(answer));
		return { asked: Object.fromEntries(answered.map((a) => [a.customerId, a.asked])), forms: Object.fromEntries(answered.map((a) => [a.customerId, a.form])) };
	}

	const rows = async (sql, params) => (await db.query(sql, params)).rows;
	const verdicts = async () => Object.fromEntries((await rows("SELECT id, verdict FROM customers WHERE verdict = 'hit' ORDER BY id")).map((r) => [Number(r.id), r.verdict]));

	test('night 1: every customer screened once, 20 reviews asked by e-mail, the decisions stored with the fingerprints seen', async () => {
		const { waiting } = await night();
		assert.equal(waiting.length, HITS.size);
		const { asked, forms } = await answerAll(HITS.size);
		assert.deepEqual(asked, Object.fromEntries([...HITS].map(([id, [, , records]]) => [id, records])));
		assert.match(forms[50], /<h3>AML-SAN-0001 · new<\/h3><table><tr><th>Name<\/th><td>Viktor Sanctioned<\/td><\/tr><tr><th>Also known as<\/th><td>Viktor S\.; V\. Sanktioniert/, 'the form shows the records');
		const decided = await rows('SELECT d.record_id, d.fingerprint, d.decision, e.summary FROM decisions d JOIN evidence e ON e.id = d.evidence_id ORDER BY d.id');
		assert.equal(decided.length, 23);
		for (const d of decided) assert.equal(JSON.parse(d.summary).fingerprints[d.record_id], d.fingerprint, 'the fingerprint of the screening the reviewer was shown');
		assert.deepEqual(decided.filter((d) => d.decision !== 'false positive').map((d) => `${d.record_id}: ${d.decision}`).sort(), ['AML-CRI-0001: true match', 'AML-PEP-0101: escalate', 'AML-SAN-0101: true match']);
		assert.deepEqual([...crm].sort(), ['AML-CRI-0001', 'AML-SAN-0101'], 'the true matches left on To CRM');
		assert.deepEqual(await rows('SELECT id FROM customers WHERE review_asked_at IS NOT NULL'), [], 'no review is open');
		const [refused] = await rows('SELECT verdict, error, (SELECT count(*)::int FROM evidence WHERE customer_id = $1) AS evidence FROM customers WHERE id = $1', [REFUSED]);
		assert.match(refused.error, /HTTP 403/);
		assert.deepEqual([refused.verdict, refused.evidence], [null, 0], 'a refusal is no screening: the next night tries again');
	});

	test('night 2, nothing changed: every customer screened again, no review asked, the hits still hits', async () => {
		const { waiting } = await night();
		assert.equal(waiting.length, 0);
		await assert.rejects(smtp.nextMessage(() => true, { timeoutMs: 1000 }), /no matching e-mail/);
		assert.deepEqual(await verdicts(), Object.fromEntries([...HITS.keys()].map((id) => [id, 'hit'])));
		const latest = await rows('SELECT DISTINCT ON (customer_id) customer_id, verdict, summary FROM evidence ORDER BY customer_id, id DESC');
		assert.equal(latest.length, BOOK - 1);
		assert.deepEqual(latest.filter((r) => JSON.parse(r.summary).needsReview).map((r) => r.customer_id), []);
		assert.equal(latest.filter((r) => r.verdict === 'hit' && JSON.parse(r.summary).isHit).length, HITS.size);
	});

	test('the lists change two decided records and add three: exactly those five come back, one review each', async () => {
		await emulatorControl(sandbox.url, 'POST', 'aml/records', { records: CHANGES });
		const { waiting } = await night();
		assert.equal(waiting.length, 5);
		const { asked, forms } = await answerAll(5);
		assert.deepEqual(asked, COME_BACK);
		assert.match(forms[100], /AML-SAN-0003 · changed since false positive by Erika Reviewer/);
		assert.match(forms[100], /Arms broker, Example Holdings \(2025-\)/);
		assert.match(forms[333], /AML-SAN-0901 · new/);
		assert.deepEqual(crm.slice(2), ['AML-SAN-0901']);
		assert.equal(Object.keys(await verdicts()).length, HITS.size + 2, 'two customers newly on the lists');
	});

	test('evidence: one row per customer per night, each answer hashed as stored, no secret, the chains hold', async () => {
		const stored = await rows('SELECT e.id, e.customer_id, e.answer, e.evidence, c.name, c.dob FROM evidence e JOIN customers c ON c.id = e.customer_id ORDER BY e.id');
		assert.equal(stored.length, (BOOK - 1) * nights.length);
		assert.deepEqual(await rows('SELECT customer_id FROM evidence GROUP BY customer_id HAVING count(*) <> $1', [nights.length]), [], 'every customer has one row per night');
		const pages = new Set(nights.flatMap((n) => n.executions.filter((e) => e.mode === 'webhook').map((e) => e.id)));
		for (const row of stored) {
			const evidence = JSON.parse(row.evidence);
			const sent = { name: row.name, dob: customer(Number(row.customer_id)).dob };
			assert.equal(evidence.responseSha256, bodyHash(JSON.parse(row.answer)), `row ${row.id}: the answer stored is the answer hashed`);
			assert.equal(evidence.requestSha256, bodyHash(sent), `row ${row.id}: the request hashed is the one sent`);
			assert.deepEqual([evidence.environment, evidence.workflowId, evidence.endpoint, pages.has(evidence.executionId)], ['sandbox', workflowId, 'POST /aml/checkIndividual', true]);
		}
		const secrets = await rows("SELECT id FROM evidence WHERE strpos(answer || summary || evidence, $1) > 0 OR strpos(answer || summary || evidence, $2) > 0", [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID]);
		assert.deepEqual(secrets, []);
		assert.deepEqual(await rows(AUDIT_SQL), [], 'the audit query finds nothing wrong');

		const auditor = await rows(AUDITOR_SQL, [150]);
		log(`an auditor asks about customer 150: ${JSON.stringify(auditor, null, 1)}`);
		assert.equal(auditor.length, nights.length);
		assert.deepEqual(auditor.map((r) => r.verdict), ['hit', 'hit', 'hit']);
	});

	test("the recipe's audit query names a tampered row and the row after a removed one", async () => {
		const nth = async (customerId, n) => (await rows('SELECT id FROM evidence WHERE customer_id = $1 ORDER BY id OFFSET $2 LIMIT 1', [customerId, n]))[0].id;
		const [tampered, removed, after2] = [await nth(200, 1), await nth(100, 1), await nth(100, 2)];
		await db.query(`UPDATE evidence SET answer = replace(answer, '"totalHits":1', '"totalHits":0') WHERE id = $1`, [tampered]);
		await db.query('DELETE FROM evidence WHERE id = $1', [removed]);
		assert.deepEqual(await rows(AUDIT_SQL), [
			{ id: after2, customer_id: '100', problem: 'chain broken' },
			{ id: tampered, customer_id: '200', problem: 'row altered' },
		]);
		log(`nights: ${nights.map((n, i) => `${i + 1}: ${(n.ms / 1000).toFixed(1)} s, ${n.executions.length} executions, ${n.waiting.length} reviews`).join('; ')}`);
	});
});

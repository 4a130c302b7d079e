'use strict';
// examples/customer-book-data-table.json and examples/customer-book-monitoring.json in a running n8n
// server (2.40 and 1.123) against the sandbox emulator, fired by their Schedule Triggers as at night:
// a book of 1,200 customers in the n8n data table customer_book is re-screened in pages of 500, each
// page its own execution started by the page before (Execute Workflow, not waiting); every customer is
// screened once per night, the verdicts land on their rows, a refused customer keeps its error, a
// second night screens nobody. Then the book is registered for ongoing monitoring once (a duplicate
// customer ID in a page is refused by the node), and a customer who leaves is removed.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

const { dataTableRows, insertDataTableRows } = require('./lib/data-tables');
const { exampleSuite } = require('./lib/example-server');
const { readExample } = require('./lib/workflows');
const util = require('./lib/util');
const { e2eVersions, postJson } = require('./trigger-helpers');

const SCREENING = readExample('customer-book-data-table.json');
const MONITORING = readExample('customer-book-monitoring.json');
const TABLE = 'customer_book';
const PAGE = 500;
const BOOK_SIZE = 1200;

const log = (msg) => util.defaultLog(`[customer-book] ${msg}`);

/** The book: C-0001 ... C-1200, no hits but three: two on lists, one the API refuses; C-0004 repeats C-0003's ID. */
function book() {
	const rows = [];
	for (let n = 1; n <= BOOK_SIZE; n++) {
		const id = `C-${String(n).padStart(4, '0')}`;
		rows.push({ customer_id: id, name: `Customer ${id} Example`, dob: n % 10 === 0 ? '1980-04-30' : null });
	}
	rows[3].customer_id = 'C-0003';
	rows[6] = { ...rows[6], name: 'Viktor Sanctioned', dob: '1970-01-15' };
	rows[499] = { ...rows[499], name: 'Max Mixed', dob: null };
	rows[899] = { ...rows[899], name: 'Forbidden Person', dob: null };
	return rows;
}

/** The nodes with every Schedule Trigger set to fire on one cron `expression`. */
const withCron = (nodes, expression) =>
	nodes.map((n) => (n.type === 'n8n-nodes-base.scheduleTrigger' ? { ...n, parameters: { rule: { interval: [{ field: 'cronExpression', expression }] } } } : n));

/** The examples as created for the test: their Schedule Triggers never fire until `fireSchedule` sets them. */
const quietSchedules = (workflow) => ({ ...workflow, nodes: withCron(workflow.nodes, '0 0 0 1 1 *') });

/** How many times each value of `key` was sent to `route`. */
function countsBy(bodies, key) {
	const counts = new Map();
	for (const body of bodies) counts.set(body[key], (counts.get(body[key]) ?? 0) + 1);
	return counts;
}

for (const version of e2eVersions()) {
	describe(`examples/customer-book-*.json in a running n8n ${version}`, () => {
		const ready = async ({ server, tables }) => await insertDataTableRows(server, tables[TABLE], book());
		const suite = exampleSuite(version, { name: 'customer-book', log, workflows: [quietSchedules(SCREENING), quietSchedules(MONITORING)], ready });
		const { requests } = suite;

		/**
		 * Sets the workflow's Schedule Trigger to fire once in a few seconds (a cron of that minute and
		 * second in every hour), publishes it, and waits until the chain of executions it starts has
		 * ended: `expected` new executions, all finished, then 3 s more for a late one to show. Returns the
		 * new executions, oldest first.
		 */
		async function fireSchedule(workflowId, expected, { timeoutMs = 10 * 60 * 1000 } = {}) {
			const before = new Set((await suite.server.listExecutions(workflowId, { limit: 200 })).map((e) => e.id));
			const fresh = async () => (await suite.server.listExecutions(workflowId, { limit: 200 })).filter((e) => !before.has(e.id));
			// The trigger must be live before its second comes: a lead that activation outran is tried again,
			// longer. Activation that ends just before the second may still have caught it, so that is seen
			// first: a retry after a trigger that did fire would start the chain of pages twice.
			for (let leadMs = 4000; ; leadMs *= 2) {
				const at = new Date(Date.now() + leadMs);
				const stored = await suite.server.getWorkflow(workflowId);
				const nodes = withCron(stored.nodes, `${at.getSeconds()} ${at.getMinutes()} * * * *`);
				await suite.server.patch(`/rest/workflows/${workflowId}`, { nodes, versionId: stored.versionId });
				await suite.server.activateWorkflow(workflowId);
				if (Date.now() < at.getTime() - 1000) break;
				await util.sleep(Math.max(0, at.getTime() + 3000 - Date.now()));
				if ((await fresh()).length) break;
				if (leadMs > 60000) throw new Error(`activating workflow ${workflowId} took longer than ${leadMs} ms`);
				await suite.server.deactivateWorkflow(workflowId);
			}
			const finished = async () => {
				const list = await fresh();
				return list.length >= expected && list.every((e) => !['new', 'running', 'waiting'].includes(e.status));
			};
			await util.waitUntil(`${expected} finished executions of workflow ${workflowId}`, finished, { timeoutMs, intervalMs: 500 });
			await util.sleep(3000);
			return (await fresh()).sort((a, b) => Number(a.id) - Number(b.id));
		}

		/** Items each execution's `node` output (0 where it did not run). */
		async function itemsPerExecution(executions, node) {
			const counts = [];
			for (const e of executions) {
				const run = (await suite.server.getExecution(e.id)).data.resultData.runData[node];
				counts.push(run ? run[0].data.main[0].length : 0);
			}
			return counts;
		}

		test('night 1: 1,200 customers in pages of 500, each page its own execution, every customer screened once, the verdicts on their rows', { timeout: 12 * 60 * 1000 }, async () => {
			const executions = await fireSchedule(suite.ids[0], 4);
			assert.deepEqual(executions.map((e) => e.status), ['success', 'success', 'success', 'success']);
			// Three pages and the page that finds nothing due; the Check Individual node never holds more than a page.
			assert.deepEqual(await itemsPerExecution(executions, 'Get Page'), [PAGE, PAGE, BOOK_SIZE - 2 * PAGE, 0]);
			assert.deepEqual(await itemsPerExecution(executions, 'Check Individual'), [PAGE, PAGE, BOOK_SIZE - 2 * PAGE, 0]);

			const sent = countsBy(await requests('POST /aml/checkIndividual'), 'name');
			assert.equal(sent.size, BOOK_SIZE, 'every customer of the book screened');
			assert.deepEqual([...sent.values()].filter((n) => n !== 1), [], 'and each once');

			const rows = await dataTableRows(suite.server, suite.tables[TABLE]);
			assert.equal(rows.length, BOOK_SIZE);
			const byName = new Map(rows.map((r) => [r.name, r]));
			assert.deepEqual(rows.filter((r) => !r.screened_at).map((r) => r.customer_id), [], 'every row has its screening time');
			const verdict = (name) => {
				const { verdict: v, hits, error } = byName.get(name);
				return { verdict: v, hits, error };
			};
			assert.deepEqual(verdict('Viktor Sanctioned'), { verdict: 'hit', hits: 2, error: null });
			assert.deepEqual(verdict('Max Mixed'), { verdict: 'hit', hits: 3, error: null });
			const refused = verdict('Forbidden Person');
			assert.equal(refused.verdict, 'error');
			assert.equal(refused.hits, null);
			assert.match(refused.error, /403/);
			assert.deepEqual(
				rows.filter((r) => !['Viktor Sanctioned', 'Max Mixed', 'Forbidden Person'].includes(r.name)).filter((r) => r.verdict !== 'clear' || r.hits !== 0),
				[],
				'everyone else clear, 0 hits',
			);
			assert.deepEqual((await requests('POST /aml/checkIndividual')).find((b) => b.name === 'Viktor Sanctioned'), { name: 'Viktor Sanctioned', dob: '1970/01/15' });
		});

		test('night 2, within 12 hours: nothing is due, one execution, nobody screened', { timeout: 5 * 60 * 1000 }, async () => {
			const executions = await fireSchedule(suite.ids[0], 1);
			assert.deepEqual(await itemsPerExecution(executions, 'Get Page'), [0]);
			assert.equal((await requests('POST /aml/checkIndividual')).length, BOOK_SIZE);
		});

		test('monitoring: every customer ID registered once, the profile written back; the duplicate ID in the page gets the node error', { timeout: 12 * 60 * 1000 }, async () => {
			const executions = await fireSchedule(suite.ids[1], 4);
			assert.deepEqual(await itemsPerExecution(executions, 'Register Individual'), [PAGE, PAGE, BOOK_SIZE - 2 * PAGE, 0]);
			const registered = countsBy(await requests('POST /aml/ongoingMonitoring/registerIndividual'), 'profileId');
			assert.equal(registered.size, BOOK_SIZE - 1, 'one registration per customer ID (C-0003 is on two rows)');
			assert.deepEqual([...registered.values()].filter((n) => n !== 1), [], 'and no ID registered twice');

			const rows = await dataTableRows(suite.server, suite.tables[TABLE]);
			const [first, duplicate] = rows.filter((r) => r.customer_id === 'C-0003');
			assert.deepEqual([first.monitoring_profile, first.monitoring_error], ['C-0003', null]);
			assert.equal(duplicate.monitoring_profile, null);
			assert.match(duplicate.monitoring_error, /^Profile ID \(profileId\) "C-0003" is item \d+'s too: one Profile ID names one monitoring profile/);
			assert.deepEqual(rows.filter((r) => r !== duplicate && r.monitoring_profile !== r.customer_id).map((r) => r.customer_id), []);

			const again = await fireSchedule(suite.ids[1], 1);
			assert.deepEqual(await itemsPerExecution(again, 'Get Unregistered'), [0]);
			assert.equal((await requests('POST /aml/ongoingMonitoring/registerIndividual')).length, BOOK_SIZE - 1, 'the next run registers nobody');
		});

		test('a customer who leaves: the profile is removed, then the row', async () => {
			const res = await postJson(`${suite.base}/webhook/customer-book/left`, { customerId: 'C-0010' });
			assert.equal(res.status, 200, `the webhook answered ${res.status}: ${JSON.stringify(res.data)}`);
			assert.deepEqual(await requests('POST /aml/ongoingMonitoring/removeSearchProfile'), [{ profileId: 'C-0010' }]);
			const rows = await dataTableRows(suite.server, suite.tables[TABLE]);
			assert.equal(rows.length, BOOK_SIZE - 1);
			assert.ok(!rows.some((r) => r.customer_id === 'C-0010'), 'the row is gone');
		});
	});
}

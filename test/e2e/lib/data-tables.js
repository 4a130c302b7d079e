'use strict';
// The n8n data tables a workflow writes to by name, created through n8n's REST API before it runs
// (an example's Data Table node names its table; n8n does not create it). Both n8n versions:
//   GET  /rest/projects/personal                      -> { id, ... } (the owner's project)
//   GET  /rest/projects/:projectId/data-tables        -> { count, data: [{ id, name, ... }] }
//   POST /rest/projects/:projectId/data-tables        { name, columns: [{ name, type }] }
// Column types: string, number, boolean, date (the Data Table node's resource mapper schema names them).

/** The tables `workflow`'s Data Table nodes reference by name, each once, with the columns all their mappings use. */
function tablesOf(workflow) {
	const tables = new Map();
	for (const n of workflow.nodes) {
		if (n.type !== 'n8n-nodes-base.dataTable' || n.parameters?.dataTableId?.mode !== 'name') continue;
		const name = n.parameters.dataTableId.value;
		const columns = tables.get(name) ?? [];
		for (const { id, type } of n.parameters.columns?.schema ?? []) if (!columns.some((c) => c.name === id)) columns.push({ name: id, type });
		tables.set(name, columns);
	}
	return [...tables].map(([name, columns]) => ({ name, columns }));
}

/**
 * Creates every table the workflow names that does not exist yet in the owner's project and puts
 * `sampleRows[name]` into each table it creates (a table that exists keeps its rows); returns their ids by name.
 */
async function ensureDataTables(server, workflow, { sampleRows = {} } = {}) {
	const tables = tablesOf(workflow);
	if (!tables.length) return {};
	const { id: projectId } = await server.get('/rest/projects/personal');
	const base = `/rest/projects/${projectId}/data-tables`;
	const existing = (await server.get(base)).data ?? [];
	const ids = {};
	for (const table of tables) {
		const found = existing.find((t) => t.name === table.name);
		if (found) {
			ids[table.name] = found.id;
			continue;
		}
		ids[table.name] = (await server.post(base, table)).id;
		if (sampleRows[table.name]) await insertDataTableRows(server, ids[table.name], sampleRows[table.name]);
	}
	return ids;
}

/** The rows of a table, oldest first (n8n answers at most MAX_ITEMS_PER_PAGE, 250, per request). */
async function dataTableRows(server, tableId) {
	const { id: projectId } = await server.get('/rest/projects/personal');
	const rows = [];
	for (;;) {
		const query = { skip: String(rows.length), take: '250', sortBy: 'id:asc' };
		const page = await server.get(`/rest/projects/${projectId}/data-tables/${tableId}/rows`, { query });
		rows.push(...(page.data ?? []));
		if (!page.data?.length || rows.length >= page.count) return rows;
	}
}

/** Adds `rows` to a table, as an import of a customer list does (500 per request). */
async function insertDataTableRows(server, tableId, rows) {
	const { id: projectId } = await server.get('/rest/projects/personal');
	for (let i = 0; i < rows.length; i += 500) {
		await server.post(`/rest/projects/${projectId}/data-tables/${tableId}/insert`, { data: rows.slice(i, i + 500), returnType: 'count' });
	}
}

/**
 * n8n 1.x's Data Table node cannot name a table (only list or id): points the stored workflow's Data
 * Table nodes at the tables' ids (`ids` by name, from ensureDataTables), as a 1.x user picks the table.
 */
async function pickDataTablesById(server, workflowId, ids) {
	const stored = await server.getWorkflow(workflowId);
	const nodes = stored.nodes.map((n) =>
		n.type === 'n8n-nodes-base.dataTable' && n.parameters?.dataTableId?.mode === 'name'
			? { ...n, parameters: { ...n.parameters, dataTableId: { __rl: true, mode: 'id', value: ids[n.parameters.dataTableId.value] } } }
			: n,
	);
	await server.patch(`/rest/workflows/${workflowId}`, { nodes, versionId: stored.versionId });
}

// The rows `npm start` and the browser suite put into an example's data table when they create it, so
// that each example runs through from every start as imported: on an empty customer book, "Execute
// workflow" stops at the first read (no row, no item) and the "Customer Left" webhook answers 500.
// customer_book (examples/customer-book-*.json): one customer clear, one on the emulator's sanction
// lists, and C-4711 (the customer the browser suite's CRM request says has left) already registered for
// monitoring, so that it can leave whichever start runs first.

const SAMPLE_ROWS = Object.freeze({
	customer_book: Object.freeze([
		{ customer_id: 'C-4711', name: 'Erika Mustermann', dob: '1964-08-12', monitoring_profile: 'C-4711' },
		{ customer_id: 'C-4712', name: 'Viktor Sanctioned', dob: '1970-01-15' },
		{ customer_id: 'C-4713', name: 'Jonas Weber', dob: null },
	]),
});

module.exports = { tablesOf, ensureDataTables, dataTableRows, insertDataTableRows, pickDataTablesById, SAMPLE_ROWS };

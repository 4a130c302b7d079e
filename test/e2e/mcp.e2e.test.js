'use strict';
// The package's action node served by n8n's MCP Server Trigger to a real MCP client, each node of the
// workflow one tool with its operation's description. The client is the official SDK that n8n itself
// ships (@modelcontextprotocol/sdk, taken from test/e2e/n8n-v2/node_modules), over Streamable HTTP
// with the trigger's bearer token. Runs examples/mcp-reads-server.json as shipped, and two variants
// that also serve actions (Challenge Deposit, Send OTP): an MCP client has no human review, so they
// refuse unless their option Run Without Human Review is on. n8n 2.40.7 and 1.123 (MCP Server
// Trigger version 2 exists in both).

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance } = require('./lib/instance');
const { defaultLog, emulatorRequests, e2eVersions } = require('./lib/util');
const { EXAMPLE_CREDENTIALS, readExample, sandboxCredential } = require('./lib/workflows');
const { parse } = require('./lib/compliance-model');
const { toolDescription } = require('./lib/package-nodes');

const VERSIONS = e2eVersions();
const EXAMPLE = readExample('mcp-reads-server.json');
const BEARER = EXAMPLE_CREDENTIALS.find((c) => c.type === 'httpBearerAuth'); // the trigger's; npm start imports it too
const TOKEN = BEARER.data.token;
const SDK = (entry) => require(require.resolve(`@modelcontextprotocol/sdk/${entry}`, { paths: [path.join(__dirname, 'n8n-v2')] }));
const { Client } = SDK('client');
const { StreamableHTTPClientTransport } = SDK('client/streamableHttp.js');
const TRIGGER = 'Verification Reads';
const ROUTES = { aml: 'POST /aml/checkIndividual', deposit: 'POST /payments/challenge-deposit', otp: 'POST /phone-service/verification' };
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

const log = (message) => defaultLog(`[mcp] ${message}`);

/** The example served on another path, with Challenge Deposit and Send OTP beside the reads. */
function withActions(id, mcpPath, parameters = {}) {
	const workflow = structuredClone(EXAMPLE);
	Object.assign(workflow, { id, name: `e2e: MCP server on ${mcpPath}` });
	const trigger = workflow.nodes.find((n) => n.name === TRIGGER);
	trigger.parameters.path = mcpPath;
	trigger.webhookId = `${trigger.webhookId.slice(0, -4)}${id.slice(-4)}`;
	const credentials = workflow.nodes.find((n) => n.name === 'Screen Person').credentials;
	const tool = (name, params) => {
		workflow.nodes.push({ id: `${id}-${name}`, name, type: 'n8n-nodes-verification-services.verificationServicesTool', typeVersion: 1, position: [800, 240], parameters: { ...params, ...parameters }, credentials });
		workflow.connections[name] = { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] };
	};
	const fromAI = (key, what) => `={{ $fromAI('${key}', '${what}', 'string') }}`;
	tool('Challenge Deposit', {
		resource: 'payments',
		operation: 'challengeDeposit',
		amount: '0.01',
		currency: 'EUR',
		description: fromAI('reference', 'Reference of the deposit'),
		firstName: fromAI('firstName', 'First name of the account holder'),
		lastName: fromAI('lastName', 'Last name of the account holder'),
		piiToggle: false,
		nameMatchLogic: 'fuzzy',
		options: {},
	});
	tool('Send OTP', { resource: 'phone', operation: 'sendOtp', method: 'sms', phoneNumber: fromAI('phoneNumber', 'Phone number'), options: {} });
	return workflow;
}

for (const version of VERSIONS) {
	describe(`MCP Server Trigger with the package's tools, n8n ${version}`, { timeout: 10 * 60 * 1000 }, () => {
		let sandbox;
		let n8n;
		let server;
		const clients = {};
		const answers = []; // every text an MCP client was given
		const actions = withActions('mcpActionsServer', 'verification-actions');
		const optIn = withActions('mcpActionsOptIn1', 'verification-actions-opt-in', { runWithoutHumanReview: true });

		const emulator = async (route, match = () => true) =>
			(await emulatorRequests(sandbox.url, route)).filter((r) => match(r.body));
		const connect = async (mcpPath, headers = { authorization: `Bearer ${TOKEN}` }) => {
			const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
			await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/${mcpPath}`), { requestInit: { headers } }));
			return client;
		};
		/** Calls a tool; returns the text the client got (and keeps it for the secrets check). */
		const call = async (client, name, args) => {
			const result = await client.callTool({ name, arguments: args });
			const text = result.content.map((c) => c.text).join('\n');
			answers.push(text);
			return { text, json: parse(text), isError: result.isError };
		};

		before(async () => {
			sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
			n8n = await createInstance(version, { name: 'mcp' });
			server = await n8n.startServer();
			await server.setupOwner();
			const { workflowIds } = await server.createCredentialsAndWorkflows({
				credentials: [sandboxCredential(sandbox.baseUrl), BEARER],
				workflows: [EXAMPLE, actions, optIn],
			});
			for (const id of workflowIds) await server.activateWorkflow(id);
			clients.reads = await connect('verification-reads');
			clients.actions = await connect('verification-actions');
			clients.optIn = await connect('verification-actions-opt-in');
		});

		after(async () => {
			for (const c of Object.values(clients)) await c.close().catch(() => {});
			await n8n?.destroy();
			await sandbox?.close();
		});

		it('lists the reads with the descriptions of the operation tables', async () => {
			const { tools } = await clients.reads.listTools();
			const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
			assert.deepEqual(Object.keys(byName).sort(), ['Company_Details', 'Phone_Status', 'Screen_Person', 'Search_Companies']);
			assert.equal(byName.Screen_Person.description, toolDescription('aml', 'checkIndividual'));
			assert.equal(byName.Search_Companies.description, toolDescription('kyb', 'search'));
			assert.equal(byName.Company_Details.description, toolDescription('kyb', 'getDetails'));
			assert.equal(byName.Phone_Status.description, toolDescription('phone', 'getPhoneStatus'));
			assert.deepEqual(Object.keys(byName.Screen_Person.inputSchema.properties).sort(), ['dob', 'name']);
			log(`${version}: tools/list: ${tools.map((t) => `${t.name}: ${t.description}`).join(' | ')}`);
		});

		it('a client without the bearer token is turned away', async () => {
			await assert.rejects(connect('verification-reads', {}), /Authorization data is wrong/);
		});

		it('the AML check and the KYB search and details answer compactly', async () => {
			const aml = await call(clients.reads, 'Screen_Person', { name: 'Viktor Sanctioned', dob: '1970/01/15' });
			const [screening] = aml.json;
			assert.deepEqual({ isHit: screening.isHit, totalHits: screening.totalHits }, { isHit: true, totalHits: 2 });
			assert.deepEqual(screening.records.map((r) => r.id), ['AML-SAN-0001', 'AML-SAN-0002']);
			assert.equal(screening.foundRecords, undefined, 'the summary, not the whole response');
			const search = await call(clients.reads, 'Search_Companies', { companyName: 'Acme' });
			assert.deepEqual(search.json.map((c) => c.companyId), ['DE-HRB-123456', 'GB-CH-01234567']);
			const { companyId, transactionId } = search.json[0];
			const details = await call(clients.reads, 'Company_Details', { companyId, transactionId });
			assert.equal(details.json[0].company.legalName, 'Acme Holdings GmbH');
			const phone = await call(clients.reads, 'Phone_Status', { phoneNumber: '+436501234567' });
			assert.ok(phone.json[0].lineStatus, phone.text);
			for (const r of [aml, search, details, phone]) assert.ok(r.text.length < 2500, `compact: ${r.text.length} characters`);
			log(`${version}: AML (${aml.text.length} characters): ${aml.text}`);
			log(`${version}: KYB search (${search.text.length}): ${search.text}`);
			log(`${version}: KYB details (${details.text.length}) and phone status (${phone.text.length}): ${phone.text}`);
		});

		it('a refused argument comes back in words, and nothing is sent for it', async () => {
			const refused = await call(clients.reads, 'Screen_Person', { name: 'Viktor Sanctioned', dob: '15.01.1970' });
			const [item] = refused.json;
			assert.match(item.error, /^Date of Birth \(dob\) must be .*got "15\.01\.1970"/);
			assert.match(item.description, /Nothing was sent/);
			assert.deepEqual(await emulator(ROUTES.aml, (b) => b.dob === '15.01.1970'), []);
			log(`${version}: refused argument: ${refused.text}`);
		});

		it('actions served without human review are refused in words, and nothing is sent', async () => {
			const deposit = await call(clients.actions, 'Challenge_Deposit', { reference: 'mcp-4801', firstName: 'Anna', lastName: 'Schmidt' });
			const otp = await call(clients.actions, 'Send_OTP', { phoneNumber: '+43 650 7777777' });
			for (const [what, r] of [['money', deposit], ['message', otp]]) {
				const [item] = r.json ?? [];
				assert.match(item?.error ?? '', /not run|no person approved/i, r.text);
				assert.match(item.error, new RegExp(what, 'i'));
				assert.match(item.description, /Run Without Human Review/);
			}
			assert.deepEqual(await emulator(ROUTES.deposit, (b) => b.description === 'mcp-4801'), []);
			assert.deepEqual(await emulator(ROUTES.otp, (b) => b.phoneNumber === '436507777777'), []);
			log(`${version}: actions refused, nothing sent: ${deposit.text} | ${otp.text}`);
		});

		it('with Run Without Human Review on, each action is sent once', async () => {
			const deposit = await call(clients.optIn, 'Challenge_Deposit', { reference: 'mcp-4802', firstName: 'Anna', lastName: 'Schmidt' });
			const otp = await call(clients.optIn, 'Send_OTP', { phoneNumber: '+43 650 8888888' });
			assert.equal((await emulator(ROUTES.deposit, (b) => b.description === 'mcp-4802')).length, 1);
			assert.equal((await emulator(ROUTES.otp, (b) => b.phoneNumber === '436508888888')).length, 1);
			assert.match(deposit.json[0].transactionId, /^[0-9a-f-]{36}$/);
			assert.match(otp.json[0].referenceId, /^[0-9a-f]{32}$/);
			log(`${version}: opted in, sent once each: ${deposit.text} | ${otp.text}`);
		});

		it('no secret in any answer (API key, customer ID, access token)', () => {
			assert.ok(answers.length >= 7);
			for (const text of answers) {
				for (const secret of [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID, TOKEN]) assert.ok(!text.includes(secret), 'a secret reached the client');
				assert.doesNotMatch(text, JWT, 'an access token reached the client');
			}
		});
	});
}

'use strict';
// The package as a user meets it: n8n 2.x's editor in Debian's Chromium (puppeteer-core), the package
// installed as a community package, the sandbox emulator behind the credential. One n8n, one browser,
// steps in order. Screenshots go to test/browser/.artifacts/ (ignored); BROWSER_DOCS=1 also refreshes
// the ones committed in docs/.
// Run: npm run test:browser (N8N_E2E_WORK_DIR as for the e2e suite).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { createInstance } = require('../e2e/lib/instance');
const { OWNER } = require('../e2e/lib/rest');
const { REPO_ROOT } = require('../e2e/lib/util');
const { control } = require('../e2e/trigger-helpers');
const { startSandbox } = require('../../sandbox/server');
const { chromiumPath, launchBrowser, screenshot } = require('./lib/browser');
const editor = require('./lib/editor');
const { waitingStep, resumeWaiting } = require('./lib/waiting');
const { startModelServer } = require('../e2e/lib/model-server');
const { complianceModel } = require('../e2e/lib/compliance-model');
const { reviewModel } = require('../e2e/lib/review-model');
const { startSmtpSink } = require('../e2e/lib/smtp-sink');
const { ensureDataTables, SAMPLE_ROWS } = require('../e2e/lib/data-tables');
const { sandboxCredentials } = require('../e2e/lib/example-server');
const { deliverSignedResult } = require('./lib/signed-results');
const { nodePanelEntries, nodeActions, showActionGroup } = require('./lib/node-panel');

const { byId, until } = editor;
const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).name;
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const DOCS_DIR = path.join(REPO_ROOT, 'docs');
const WRONG = '00000000-0000-4000-8000-000000000000';
/** What a caller (a sign-up page, a CRM) posts to the examples' Webhook nodes, by webhook path. */
const SAMPLE_REQUESTS = {
	'phone-otp/start': { phoneNumber: '+43 650 123 4567' },
	'qes-onboarding/start': { email: 'erika.mustermann@example.com', phoneNumber: '+49 151 12345678', customerNumber: 'C-4711' },
	'customer-onboarding/new': {
		customerId: 'C-4711',
		firstName: 'Erika',
		lastName: 'Mustermann',
		dateOfBirth: '1964-08-12',
		phoneNumber: '+43 650 123 4567',
		country: 'AT',
		street: 'Hauptstraße',
		houseNumber: '5',
		zip: '1010',
		city: 'Wien',
	},
	'identity-journey/start': { customerNumber: 'C-4711', fullName: 'Erika Mustermann', dateOfBirth: '1964-08-12' },
	'pay-by-bank/checkout': { orderId: 'order-4711', amount: '49.90' },
	// The sample customer registered for monitoring leaves.
	'customer-book/left': { customerId: SAMPLE_ROWS.customer_book.find((row) => row.monitoring_profile).customer_id },
};
const TRIGGER = `${PACKAGE}.verificationServicesTrigger`;
/** How the test fires a start: by its node type, and for the package's trigger by its source. */
const startKind = (node) => (node.type === TRIGGER ? `${TRIGGER}:${node.parameters.source}` : node.type);
const QES_PING = `${TRIGGER}:qesStatus`;
const SIGNED_RESULT = `${TRIGGER}:signedResult`;
const STARTS = ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.webhook', QES_PING, SIGNED_RESULT];
/** The action group a user finds by each word in the node panel: the resource it names. */
const GROUP_WORDS = { AML: 'aml', KYB: 'kyb', OTP: 'phone', QES: 'qes' };
/** A start only the workflow itself fires (the customer book's next page), never a person in the editor. */
const CALLED_BY_WORKFLOW = 'n8n-nodes-base.executeWorkflowTrigger';

function exampleFiles() {
	return fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json') && !f.startsWith('credentials')).sort();
}

const readExample = (file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));

/** The nodes an example can be started from in the editor, in the order they appear. */
function startsOf(json) {
	return json.nodes.filter((n) => (/trigger/i.test(n.type) && n.type !== CALLED_BY_WORKFLOW) || n.type === 'n8n-nodes-base.webhook');
}

/** A screenshot in .artifacts; with BROWSER_DOCS also docs/<docs>.png (`docs: true`: the same name). */
async function shot(page, name, { docs = false } = {}) {
	const file = await screenshot(page, name);
	if (docs && process.env.BROWSER_DOCS) {
		fs.mkdirSync(DOCS_DIR, { recursive: true });
		fs.copyFileSync(file, path.join(DOCS_DIR, `${docs === true ? name : docs}.png`));
	}
}

/** The trigger's sources ("Trigger On") in the built package. */
function builtSources() {
	const { VerificationServicesTrigger } = require(path.join(REPO_ROOT, 'dist', 'nodes', 'VerificationServicesTrigger', 'VerificationServicesTrigger.node.js'));
	return new VerificationServicesTrigger().description.properties.find((p) => p.name === 'source').options;
}

/** The resource `value` of the built action node: its name and the node panel label of each operation. */
function builtResource(value) {
	const { [`${value}Resource`]: resource } = require(path.join(REPO_ROOT, 'dist', 'nodes', 'VerificationServices', value, 'operations', 'index.js'));
	return { name: resource.name, actions: resource.operations.map((op) => op.action) };
}

describe('n8n 2.x editor in Chromium', { skip: chromiumPath() ? false : 'Chromium is not installed (apt-get install -y chromium)', timeout: 20 * 60 * 1000 }, () => {
	let sandbox;
	let n8n;
	let server;
	let browser;
	let page;
	let model;
	let smtp;
	const workflows = {}; // example file -> { id, json }

	before(async () => {
		sandbox = await startSandbox({ port: 0 });
		// The agent examples' OpenAI credential points at the scripted models the agent e2e suites use,
		// their review e-mails go to an SMTP sink.
		model = await startModelServer({ script: (body, c) => (c.offeredTools.includes('Challenge_Deposit') ? reviewModel : complianceModel)(body, c) });
		smtp = await startSmtpSink();
		n8n = await createInstance('v2', { name: 'browser' });
		const files = exampleFiles();
		const jsons = files.map(readExample);
		/** The reference the examples' nodes hold to a credential of `type`. */
		const credentialOf = (type) => jsons.flatMap((json) => json.nodes).map((n) => n.credentials?.[type]).find(Boolean);
		const openAi = credentialOf('openAiApi');
		const smtpCredential = credentialOf('smtp');
		server = await n8n.startServer();
		await server.ensureLoggedIn();
		const { workflowIds } = await server.createCredentialsAndWorkflows({
			credentials: [
				...sandboxCredentials(sandbox.baseUrl),
				...(openAi ? [{ ...openAi, type: 'openAiApi', data: { apiKey: 'sk-test-model', url: model.baseUrl } }] : []),
				...(smtpCredential ? [{ ...smtpCredential, type: 'smtp', data: { host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, user: '', password: '' } }] : []),
			],
			workflows: jsons,
		});
		files.forEach((f, i) => (workflows[f] = { id: workflowIds[i], json: jsons[i] }));
		// The data tables the examples write to, with the sample rows npm start puts into them.
		for (const json of jsons) await ensureDataTables(server, json, { sampleRows: SAMPLE_ROWS });
		browser = await launchBrowser();
		page = await browser.browser.newPage();
		page.setDefaultTimeout(30000);
	});

	after(async () => {
		await browser?.close();
		await n8n?.destroy();
		await model?.close();
		await smtp?.close();
		await sandbox?.close();
	});

	test('signs in', async () => {
		await editor.signIn(page, server.url, OWNER);
		assert.doesNotMatch(page.url(), /signin/);
	});

	/** The package's node types n8n loaded, "…Tool" variants (n8n adds one for a node usable as an AI tool) left out. */
	const packageNodeTypes = async () => (await server.getNodeTypes()).filter((t) => t.name.startsWith(`${PACKAGE}.`) && !t.name.endsWith('Tool'));
	/** The node panel of the KYB example, searched for `word`: its entries once the package's icon has loaded. */
	async function searchNodePanel(word) {
		await editor.openWorkflow(page, server.url, workflows['kyb-onboarding.json'].id);
		// The canvas's buttons show a moment after its nodes.
		await (await page.waitForSelector(byId('node-creator-plus-button'), { visible: true })).click();
		await page.waitForSelector(byId('node-creator-search-bar'));
		await page.keyboard.type(word);
		return await until(async () => {
			const list = await nodePanelEntries(page);
			return list.find((e) => e.name === 'IDCanopy Umbrella')?.iconLoaded ? list : false;
		}, `the search results for "${word}" with loaded icons`);
	}
	const iconPattern = new RegExp(`/icons/${PACKAGE}/dist/icons/.+\\.svg$`);

	test('the node panel shows the action node and the trigger as one entry, with the package icon', async () => {
		const types = await packageNodeTypes();
		const declared = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).n8n.nodes.length;
		assert.deepEqual(types.map((t) => t.displayName).sort(), ['IDCanopy Umbrella', 'IDCanopy Umbrella Trigger']);
		assert.equal(types.length, declared, `${declared} node types loaded: ${types.map((t) => t.name).join(', ')}`);
		const entries = await searchNodePanel('verification');
		// n8n lists a trigger under the action node of the same name (its actions and its triggers).
		assert.deepEqual(entries.map((e) => e.name), ['IDCanopy Umbrella']);
		assert.match(entries[0].icon, iconPattern, "the package's icon");
	});

	for (const [word, value] of Object.entries(GROUP_WORDS)) {
		test(`searching "${word}" finds the one node; its view lists the actions of resource "${value}" and a trigger per source`, async (t) => {
			const resource = builtResource(value);
			const entries = await searchNodePanel(word);
			const ours = entries.filter((e) => e.icon && iconPattern.test(e.icon));
			assert.deepEqual(ours.map((e) => e.name), ['IDCanopy Umbrella'], `one entry of the package among ${entries.map((e) => e.name).join(', ')}`);
			t.diagnostic(`"${word}": ${entries.length} entries, the package's at place ${entries.indexOf(ours[0]) + 1}`);

			await editor.clickByText(page, byId('node-creator-item-name'), 'IDCanopy Umbrella');
			// The list renders in steps: read it once it holds as many actions as "Actions (N)" says.
			const panel = await until(async () => {
				const read = await nodeActions(page);
				return read.total && read.total === read.groups.reduce((n, g) => n + g.actions.length, 0) ? read : false;
			}, 'every action the node\'s view counts');
			const group = panel.groups.find((g) => g.label === `${resource.name} Actions`);
			assert.ok(group, `a group "${resource.name} Actions" among ${panel.groups.map((g) => g.label).join(', ')}`);
			assert.deepEqual(group.actions, resource.actions);
			assert.equal(panel.triggers, builtSources().length, 'one trigger per source ("Trigger On")');
			await showActionGroup(page, group.label);
			await editor.sleep(300); // the panel scrolls smoothly
			await shot(page, `node-panel-${word.toLowerCase()}`, { docs: word === 'AML' && 'node-panel' });
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
		});
	}

	/**
	 * Saves the credential modal; n8n then tests it. Returns what the editor shows: ok, the banner text
	 * and, when it failed, the details under "More details" (the message the credential test returned).
	 */
	async function saveCredentialAndReadTest() {
		const dialog = byId('credential-edit-dialog');
		const tested = page.waitForResponse((r) => r.url().includes('/rest/credentials/test') && r.request().method() === 'POST', { timeout: 60000 });
		await page.click(byId('credential-save-button'));
		const response = await tested;
		const body = await response.json().catch(() => ({}));
		const result = await until(async () => {
			const text = await editor.textOf(page, dialog);
			const shown = /Connection tested successfully/.test(text) ? true : /Couldn.t connect with these settings/.test(text) ? false : undefined;
			// The banner of the previous test may still be there for a moment.
			const expected = (body.data ?? body).status === 'OK';
			return shown === expected ? { ok: shown, text } : false;
		}, 'the credential test result in the form', { timeoutMs: 30000 });
		// The message behind "More details": what n8n's test endpoint answered the editor.
		result.message = String((body.data ?? body).message ?? '');
		if (!result.ok) {
			await page.evaluate((scope) => document.querySelector(`${scope} [class*="moreDetails"]`)?.click(), dialog);
			result.text = await until(async () => {
				const text = await editor.textOf(page, dialog);
				return text.includes(result.message.slice(0, 40)) ? text : false;
			}, 'the message under "More details"');
		}
		return result;
	}

	async function chooseCredentialType(name) {
		const input = `${byId('new-credential-type-select')} input`;
		await page.waitForSelector(input);
		await until(async () => {
			await page.click(input);
			await page.keyboard.down('Control');
			await page.keyboard.press('KeyA');
			await page.keyboard.up('Control');
			await page.keyboard.type(name);
			await editor.sleep(800);
			await page.keyboard.press('Enter');
			await editor.sleep(300);
			return (await page.$eval(input, (e) => e.value)) === `${name} API`;
		}, `the credential type ${name}`);
		await page.click(byId('new-credential-type-button'));
		await page.waitForSelector(byId('parameter-input-environment'), { visible: true });
	}

	test('creates the credential through the form; the test passes, then fails for a wrong key (case 1) and an unreachable URL (case 2)', async () => {
		await editor.open(page, server.url, '/home/credentials/create', `${byId('new-credential-type-select')} input`);
		await chooseCredentialType('IDCanopy Umbrella').catch(async (error) => {
			await shot(page, 'credential-timeout');
			throw error;
		});
		await editor.chooseOption(page, 'environment', 'Sandbox');
		await editor.setParameter(page, 'sandboxBaseUrl', sandbox.baseUrl);
		await editor.setParameter(page, 'apiKey', require('../../sandbox/server').SANDBOX_API_KEY);
		await editor.setParameter(page, 'customerId', require('../../sandbox/server').SANDBOX_CUSTOMER_ID);
		const good = await saveCredentialAndReadTest();
		await shot(page, 'credential-ok');
		assert.ok(good.ok, `the right key passes: ${good.message}`);

		// Case 1: the saved credential was tested with the right key; a wrong key must still be refused.
		await editor.setParameter(page, 'apiKey', WRONG);
		const wrongKey = await saveCredentialAndReadTest();
		await shot(page, 'credential-wrong-key', { docs: true });
		assert.equal(wrongKey.ok, false, 'a wrong key on an existing credential fails the test');
		assert.match(wrongKey.message, /rejected the API key or the customer ID \(HTTP 401\)/);
		assert.match(wrongKey.text, /rejected the API key or the customer ID \(HTTP 401\)/, 'the form shows the message');
		assert.ok(!wrongKey.message.includes(WRONG) && !wrongKey.text.includes(WRONG), 'the key is not echoed');

		// Case 2: the right key again, an unreachable URL.
		await editor.setParameter(page, 'apiKey', require('../../sandbox/server').SANDBOX_API_KEY);
		await editor.setParameter(page, 'sandboxBaseUrl', 'http://127.0.0.1:9/api/services');
		const wrongUrl = await saveCredentialAndReadTest();
		await shot(page, 'credential-wrong-url');
		assert.equal(wrongUrl.ok, false, 'an unreachable URL fails the test');
		// n8n 2.40.7 reports a network failure of an existing credential's test by its code (see README).
		assert.match(wrongUrl.message, /Could not reach the verification API at http:\/\/127\.0\.0\.1:9|ECONNREFUSED/);
		await page.keyboard.press('Escape');
	});

	/**
	 * "Execute workflow" on the QES example makes n8n listen: the trigger registers its test webhook with
	 * the API. The emulator then plays the API and pings it for a completed session (a fixture).
	 */
	async function sendQesPing(t) {
		const hook = await until(async () => {
			const res = await control(sandbox, 'GET', '/webhook');
			return res.status === 200 && /\/webhook-test\//.test(res.body?.url ?? '') ? res.body : false;
		}, 'the trigger to register its test webhook');
		t.diagnostic(`test webhook registered: ${new URL(hook.url).pathname}`);
		const ping = await control(sandbox, 'POST', '/qes/ping', { sessionId: 'qes-completed-001', status: 'completed' });
		assert.equal(ping.status, 200, `ping: ${JSON.stringify(ping.body)}`);
	}

	/** Posts the example's sample request to its Webhook node's test URL as soon as the editor listens. */
	async function callTestWebhook(t, node) {
		const webhookPath = node.parameters.path;
		const body = SAMPLE_REQUESTS[webhookPath];
		assert.ok(body, `a sample request for the Webhook path ${webhookPath} in SAMPLE_REQUESTS`);
		// 404 until "Execute workflow" has registered the test webhook; nothing runs for those calls.
		const res = await until(async () => {
			const answer = await server.callWebhook(webhookPath, { body, test: true });
			return answer.status === 404 ? false : answer;
		}, `the test webhook ${webhookPath} to listen`);
		t.diagnostic(`test webhook ${webhookPath}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
		assert.equal(res.status, 200, `the test webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
	}

	// An MCP server's example is started by an MCP client, not from the editor: test/e2e/mcp.e2e.test.js runs it as shipped.
	const SERVED_BY_MCP = '@n8n/n8n-nodes-langchain.mcpTrigger';
	// The customer book reads and writes a Postgres table this test does not start: test/e2e/queue.e2e.test.js runs it.
	const needsPostgres = (file) => readExample(file).nodes.some((n) => n.type === 'n8n-nodes-base.postgres');
	for (const file of exampleFiles().filter((f) => !needsPostgres(f))) {
		const starts = startsOf(readExample(file)).filter((start) => start.type !== SERVED_BY_MCP);
		if (!starts.length && !readExample(file).nodes.some((n) => n.type === SERVED_BY_MCP)) {
			test(`example ${file} can be started from the editor`, () => assert.fail('no trigger or Webhook node'));
		}
		for (const start of starts) {
			const from = starts.length > 1 ? ` from "${start.name}"` : '';
			test(`example ${file}${from}: "Execute workflow" turns every node that runs green`, async (t) => {
				const { id, json } = workflows[file];
				assert.ok(STARTS.includes(startKind(start)), `starts from ${startKind(start)}, which this test cannot fire: teach it how`);
				const before = new Set((await server.listExecutions(id)).map((e) => e.id));
				await editor.openWorkflow(page, server.url, id);
				if (starts.length > 1) {
					// Several triggers: the button on the trigger node runs the workflow from that trigger.
					await page.hover(`${byId('canvas-node')}[data-node-name="${start.name}"]`);
					await page.click(byId(`execute-workflow-button-${start.name}`));
				} else {
					await page.click(byId('execute-workflow-button'));
				}
				if (startKind(start) === QES_PING) await sendQesPing(t);
				if (startKind(start) === SIGNED_RESULT) t.diagnostic(`delivered ${await deliverSignedResult({ server, sandbox, start })}`);
				if (start.type === 'n8n-nodes-base.webhook') await callTestWebhook(t, start);
				const answered = new Set(); // waiting steps already answered
				const skipped = new Set();
				const execution = await until(
					async () => {
						const waiting = await waitingStep(server, id);
						const step = waiting && `${waiting.executionId}/${waiting.nodeName}`;
						if (waiting && !skipped.has(waiting.nodeName) && !answered.has(step)) {
							const resumed = await resumeWaiting({ server, sandbox, smtp, workflow: json, waiting });
							if (!resumed.ok) {
								skipped.add(waiting.nodeName);
								t.diagnostic(`${waiting.nodeName}: not resumed (${resumed.reason})`);
								return waiting.execution;
							}
							answered.add(step);
							t.diagnostic(`answered the waiting step ${waiting.nodeName}`);
							return false;
						}
						// The click's run is the first new one: a run it starts (the customer book's next page) comes after it.
						const [run] = (await server.listExecutions(id)).filter((e) => !before.has(e.id)).sort((a, b) => Number(a.id) - Number(b.id));
						return run && !['new', 'running', 'waiting'].includes(run.status) ? await server.getExecution(run.id) : false;
					},
					`the run of ${file}${from} to finish`,
					{ timeoutMs: 90000, intervalMs: 500 },
				).catch(async (error) => {
					await shot(page, `example-${path.basename(file, '.json')}-timeout`);
					throw error;
				});
				const ran = Object.keys(execution.data?.resultData?.runData ?? {});
				const statuses = await until(async () => {
					const s = await editor.nodeStatuses(page);
					return ran.every((name) => s[name] && s[name] !== 'running' && s[name] !== 'none') || skipped.size ? s : false;
				}, `the canvas to show the run of ${file}${from}`);
				const name = `example-${path.basename(file, '.json')}${starts.length > 1 ? `-${starts.indexOf(start) + 1}` : ''}`;
				await shot(page, name, { docs: file === 'kyb-onboarding.json' });
				assert.equal(execution.data?.resultData?.error?.message, undefined, `${file}: the run failed`);
				const notGreen = ran.filter((n) => statuses[n] !== 'success' && !skipped.has(n)).map((n) => [n, statuses[n]]);
				assert.deepEqual(notGreen, [], `${file}: nodes that ran but are not green`);
				assert.ok(ran.includes(start.name) && ran.length >= 3, `${file}: the run went from ${start.name} to its nodes (${ran.join(', ')})`);
				t.diagnostic(`${ran.length} nodes green: ${ran.join(', ')}`);
				if (skipped.size) t.skip(`waited at ${[...skipped].join(', ')}: could not resume`);
			});
		}
	}

	test('a bad value shows a clear red error naming the field and the rule', async () => {
		await editor.openWorkflow(page, server.url, workflows['payment-account-check.json'].id);
		const node = `${byId('canvas-node')}[data-node-name="Challenge Deposit"]`;
		await page.click(node, { count: 2 });
		await page.waitForSelector(byId('parameter-input-description'));
		await shot(page, 'node-fields', { docs: true });
		await editor.setParameter(page, 'description', 'Order #4711!');
		await page.keyboard.press('Tab'); // leaves the editor, which commits the value
		await editor.sleep(500);
		await page.click(byId('node-execute-button'));
		const text = await until(async () => {
			const ids = await page.$$eval('[data-test-id]', (els) => els.map((e) => e.getAttribute('data-test-id')).filter((id) => /error/i.test(id)));
			const t = await editor.textOf(page, byId('ndv-output-panel')) || (await editor.textOf(page, byId('output-panel')));
			return /Order #4711!/.test(t) ? t : ids.length ? `${t}\n${ids.join(' ')}` && false : false;
		}, 'the error in the output panel', { timeoutMs: 60000 }).catch(async (error) => {
			await shot(page, 'node-error-timeout');
			throw error;
		});
		await shot(page, 'node-error', { docs: true });
		// The field by its label and its name, the rule, and the item counted from 1 as the editor does.
		assert.match(text, /Description \(description\) must be[^\n]*(letters|digits|hyphen)/);
		assert.match(text, /\(item 1\)/);
	});

	test("the README's pictures of the trigger's panel and of an action behind a human review step", async () => {
		await editor.openWorkflow(page, server.url, workflows['qes-onboarding.json'].id);
		await page.click(`${byId('canvas-node')}[data-node-name="QES Status Ping"]`, { count: 2 });
		await page.waitForSelector(byId('parameter-input-source'));
		await shot(page, 'trigger-panel', { docs: true });
		assert.match(await editor.textOf(page, 'body'), /Trigger On/);
		await page.keyboard.press('Escape');

		const review = workflows['agent-deposit-review.json'];
		const reviewer = review.json.nodes.find((n) => n.type.endsWith('HitlTool'));
		await editor.openWorkflow(page, server.url, review.id);
		await page.waitForSelector(`${byId('canvas-node')}[data-node-name="${reviewer.name}"]`);
		await shot(page, 'agent-review', { docs: true });
	});
});

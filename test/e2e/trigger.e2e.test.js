'use strict';
// QES Onboarding Trigger in a real n8n server (`n8n start`), against the sandbox emulator.
//
//   cd /work/main && npm run build && node --test test/e2e/trigger.e2e.test.js
//
// Per n8n version: one instance, one server start, then everything through the REST API (the credential
// and the workflows too) and the emulator's controls; one more server start on the same user
// folder for the restart checks (registration kept; duplicate memory per process, so forgotten). A second workflow with the
// same trigger and Ignore Duplicates Within 0 is the "option off" side of the duplicate checks. The tests of a describe build on each other (activation state,
// execution counts), so they run in order and a later one is skipped when an earlier one failed.
// N8N_E2E_VERSIONS=v2 (or v1) limits the run to one version (as in the other e2e files).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput, packageManifest } = require('./lib/instance');
const { node, noOp, chain } = require('./lib/workflows');
const util = require('./lib/util');
const {
	closeSuite,
	storedWebhook,
	routeCount,
	emulatorPing,
	postJson,
	probeWebhook,
	waitUntil,
	nodeStaticData,
	waitForActivation,
	waitForDeactivation,
	executions,
	settleExecutions,
	newIds,
	serverEnv,
} = require('./trigger-helpers');

const PACKAGE = 'n8n-nodes-verification-services';
const TRIGGER_TYPE = `${PACKAGE}.verificationQesTrigger`;
const TRIGGER_NAME = 'QES Onboarding Trigger';
const NOOP_NAME = 'No Operation';
const SECRET_HEADER = 'X-Verification-Webhook-Secret';
const CONFIGURE = 'POST /onboarding/configureWebhook';
const GET_VERIFICATION = 'GET /onboarding/getVerification/:sessionId';

const STEP_TIMEOUT = 5 * 60 * 1000;
const SETUP_TIMEOUT = 45 * 60 * 1000; // may include the first install of the n8n runtime

const log = (msg) => util.defaultLog(`[trigger] ${msg}`);

function triggerWorkflow({ credentialId, credentialName, webhookId, name, options = { fetchVerification: true } }) {
	return chain(name, [
		node({
			name: TRIGGER_NAME,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			webhookId,
			parameters: { options },
			credentials: { verificationServicesApi: { id: credentialId, name: credentialName } },
		}),
		noOp(NOOP_NAME),
	]);
}

// ---------------------------------------------------------------------------------------------

const versions = (process.env.N8N_E2E_VERSIONS || 'v2,v1').split(',').map((v) => v.trim()).filter(Boolean);

function defineSuite(version) {
	const label = version === 'v2' ? 'n8n 2.x' : 'n8n 1.x';
	describe(`QES Onboarding Trigger in a running ${label} (${version})`, () => {
		/** @type {Awaited<ReturnType<typeof startSandbox>>} */
		let sandbox;
		let instance;
		let server;
		let port;
		let workflowId;
		const webhookId = crypto.randomUUID();
		let productionUrl;
		// A second workflow, the same trigger with Ignore Duplicates Within 0 (off), activated later.
		let offWorkflowId;
		const offWebhookId = crypto.randomUUID();
		let offUrl;
		let failed = false; // a failed step makes the later ones skip (they build on its state)
		const timings = {};
		let suiteStarted = Date.now();

		/** Runs a step unless an earlier one failed; remembers a failure. */
		function step(name, fn, opts = {}) {
			test(name, { timeout: STEP_TIMEOUT, ...opts }, async (t) => {
				if (failed) {
					t.skip('an earlier step of this suite failed');
					return;
				}
				try {
					await fn(t);
				} catch (error) {
					failed = true;
					if (server) error.message += `\nn8n server log: ${server.logFile}`;
					throw error;
				}
			});
		}

		before(
			async () => {
				suiteStarted = Date.now();
				try {
					const manifest = packageManifest();
					if (!manifest.complete) throw new Error(`build the package first (npm run build); missing: ${manifest.missing.join(', ')}`);
					sandbox = await startSandbox({ port: 0, host: '127.0.0.1', config: { latencyMs: 0 } });

					let t0 = Date.now();
					instance = await createInstance(version, { name: 'qes-trigger' });
					timings.instanceMs = Date.now() - t0;

					port = await util.freePort();
					server = await instance.startServer({ port, env: serverEnv(port) });
					timings.firstStartMs = server.startupMs;
					await server.ensureLoggedIn();
					t0 = Date.now();
					const credentialName = 'Verification sandbox (e2e)';
					const [credentialId] = await server.createCredentials([
						{
							name: credentialName,
							type: 'verificationServicesApi',
							data: {
								environment: 'sandbox',
								sandboxBaseUrl: sandbox.baseUrl,
								apiKey: SANDBOX_API_KEY,
								customerId: SANDBOX_CUSTOMER_ID,
							},
						},
					]);
					[workflowId, offWorkflowId] = await server.createWorkflows([
						triggerWorkflow({ credentialId, credentialName, webhookId, name: `QES trigger e2e (${version})` }),
						triggerWorkflow({ credentialId, credentialName, webhookId: offWebhookId, name: `QES trigger e2e, duplicates not ignored (${version})`, options: { fetchVerification: true, dedupMinutes: 0 } }),
					]);
					timings.importMs = Date.now() - t0;
					productionUrl = `http://127.0.0.1:${port}/webhook/${webhookId}/webhook`;
					offUrl = `http://127.0.0.1:${port}/webhook/${offWebhookId}/webhook`;
					log(`${version}: instance ${timings.instanceMs} ms, imports ${timings.importMs} ms, server start ${server.startupMs} ms`);
				} catch (error) {
					failed = true;
					throw error;
				}
			},
			{ timeout: SETUP_TIMEOUT },
		);

		after(
			async () => {
				try {
					await closeSuite({ instance, sandbox, failed, log: (line) => log(`${version}: ${line}`) });
				} finally {
					log(`${version}: suite took ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s ${JSON.stringify(timings)}`);
				}
			},
			{ timeout: 2 * 60 * 1000 },
		);

		/** Waits for an activation to take effect (n8n 2.x applies it after the REST call returns). */
		async function activated(configureCount) {
			return await waitForActivation({
				sandbox,
				server,
				workflowId,
				nodeName: TRIGGER_NAME,
				url: productionUrl,
				configureRoute: CONFIGURE,
				configureCount,
				secretHeader: SECRET_HEADER,
			});
		}

		step('activation registers the production webhook URL with the secret header, once', async () => {
			assert.equal(await storedWebhook(sandbox), null, 'the emulator starts without a webhook');
			assert.equal(await routeCount(sandbox, CONFIGURE), 0);
			assert.equal(await probeWebhook(productionUrl), 404, 'no production webhook before activation');

			await server.activateWorkflow(workflowId);
			const { webhook, registration } = await activated(1);

			assert.equal(webhook.url, productionUrl, "the stored URL is n8n's production webhook URL of the trigger");
			const authHeader = webhook.metadata?.authHeader;
			assert.ok(authHeader && typeof authHeader === 'object', `metadata.authHeader is an object: ${JSON.stringify(webhook.metadata)}`);
			assert.deepEqual(Object.keys(authHeader), [SECRET_HEADER]);
			assert.match(authHeader[SECRET_HEADER], /^[0-9a-f]{64}$/, 'the secret is 32 random bytes in hex');
			assert.equal(await routeCount(sandbox, CONFIGURE), 1, 'exactly one configureWebhook call');

			// What the node keeps in static data matches what the emulator got: the secret's hash, not the secret.
			const secret = authHeader[SECRET_HEADER];
			assert.equal(registration.webhookUrl, productionUrl);
			assert.equal(registration.secretHeader, SECRET_HEADER);
			assert.equal(registration.secretSha256, util.sha256(secret), 'static data holds the SHA-256 of the registered secret');
			assert.deepEqual(Object.keys(registration).sort(), ['secretHeader', 'secretSha256', 'webhookUrl'], 'static data holds no plaintext secret, only what the trigger reads');
			const workflowJson = JSON.stringify(await server.getWorkflow(workflowId));
			assert.ok(!workflowJson.includes(secret), 'the plaintext secret is nowhere in GET /rest/workflows/:id');
		});

		step("the emulator's ping is answered 2xx and starts one execution with the ping and the fetched result", async () => {
			const before = await executions(server, workflowId);
			assert.equal(before.length, 0);
			const fetchesBefore = await routeCount(sandbox, GET_VERIFICATION);

			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed');
			assert.equal(delivery.delivered, true, `ping delivery: ${JSON.stringify(delivery)}`);
			assert.ok(delivery.status >= 200 && delivery.status < 300, `status ${delivery.status}`);

			const list = await settleExecutions(server, workflowId, 1);
			assert.equal(list.length, 1, `exactly one execution: ${JSON.stringify(list)}`);
			assert.equal(list[0].mode, 'webhook');
			assert.equal(list[0].status, 'success');
			assert.equal((await routeCount(sandbox, GET_VERIFICATION)) - fetchesBefore, 1, 'one getVerification call');

			const execution = await server.getExecution(list[0].id);
			const out = nodeOutput(execution.data, TRIGGER_NAME);
			assert.ok(out, `the trigger has output: ${JSON.stringify(execution.data?.resultData?.runData)?.slice(0, 2000)}`);
			assert.equal(out.length, 1);
			const item = out[0];
			// The ping as the emulator sent it ...
			assert.equal(item.event, 'qes.status');
			assert.equal(item.sessionId, 'qes-completed-001');
			assert.equal(item.requestId, 'qes-completed-001');
			assert.equal(item.status, 'completed');
			assert.equal(typeof item.timestamp, 'string');
			// ... plus the verification result fetched with the credential.
			assert.equal(item.verificationError, undefined, `no verificationError: ${JSON.stringify(item.verificationError)}`);
			assert.ok(item.verification, `verification fetched: ${JSON.stringify(item).slice(0, 2000)}`);
			assert.equal(item.verification.data.isVerified, true);
			assert.equal(item.verification.data.status, 'completed');
			assert.deepEqual(nodeOutput(execution.data, NOOP_NAME), out, 'the NoOp passes the item on');

			// The plaintext secret is nowhere: not in the node's output (the execution's run data), not in
			// the execution's workflowData (n8n 1.x copies the workflow, static data included, into every
			// execution: the node keeps only the secret's SHA-256 there), not in the workflow.
			const secret = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];
			assert.ok(!JSON.stringify(execution.data).includes(secret), 'the secret is not in the execution data');
			assert.ok(!JSON.stringify(execution).includes(secret), `${label}: the secret is nowhere in GET /rest/executions/:id (workflowData.staticData included)`);
			assert.ok(!JSON.stringify(await server.getWorkflow(workflowId)).includes(secret), `${label}: the secret is nowhere in GET /rest/workflows/:id`);
		});

		step('a ping with a wrong or missing secret header gets 401 and starts nothing', async () => {
			const before = await executions(server, workflowId);
			const body = (attempt) => ({
				event: 'qes.status',
				sessionId: 'qes-completed-001',
				requestId: 'qes-completed-001',
				status: 'completed',
				timestamp: new Date().toISOString(),
				attempt,
			});

			const missing = await postJson(productionUrl, body('missing'));
			assert.equal(missing.status, 401, `missing header: ${missing.status} ${JSON.stringify(missing.data)}`);

			const wrong = await postJson(productionUrl, body('wrong'), { [SECRET_HEADER]: crypto.randomBytes(32).toString('hex') });
			assert.equal(wrong.status, 401, `wrong header: ${wrong.status} ${JSON.stringify(wrong.data)}`);

			const short = await postJson(productionUrl, body('short'), { [SECRET_HEADER]: 'x' });
			assert.equal(short.status, 401, `short header: ${short.status} ${JSON.stringify(short.data)}`);

			await util.sleep(2000);
			assert.deepEqual(newIds(before, await executions(server, workflowId)), [], 'no new execution');

			// Control: the same request with the right header is accepted and starts one execution.
			const secret = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];
			const right = await postJson(productionUrl, body('right'), { [SECRET_HEADER]: secret });
			assert.ok(right.status >= 200 && right.status < 300, `right header: ${right.status} ${JSON.stringify(right.data)}`);
			const settled = await settleExecutions(server, workflowId, before.length + 1);
			assert.equal(newIds(before, settled).length, 1, 'the accepted ping started one execution');
		});

		step('deactivating and activating again registers once per activation; the emulator holds the current webhook', async () => {
			const firstSecret = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];

			for (let cycle = 1; cycle <= 2; cycle++) {
				const countBefore = await routeCount(sandbox, CONFIGURE);
				const previous = await storedWebhook(sandbox);

				await server.deactivateWorkflow(workflowId);
				await waitForDeactivation({ server, workflowId, nodeName: TRIGGER_NAME, url: productionUrl });
				assert.equal(await routeCount(sandbox, CONFIGURE), countBefore, `cycle ${cycle}: deactivation calls nothing`);

				await server.activateWorkflow(workflowId);
				const { webhook, registration } = await activated(countBefore + 1); // exactly one call per activation

				assert.equal(webhook.url, productionUrl, `cycle ${cycle}: same production URL`);
				assert.notEqual(webhook.id, previous.id, `cycle ${cycle}: the emulator replaced the webhook`);
				const secret = webhook.metadata.authHeader[SECRET_HEADER];
				assert.equal(registration.secretSha256, util.sha256(secret), `cycle ${cycle}: n8n holds the emulator's current webhook`);
				assert.notEqual(secret, previous.metadata.authHeader[SECRET_HEADER], `cycle ${cycle}: a new activation registers a new secret`);
				assert.equal(registration.secretSha256, util.sha256(secret), `cycle ${cycle}: static data holds the new secret's hash`);
				assert.ok(!JSON.stringify(await server.getWorkflow(workflowId)).includes(secret), `cycle ${cycle}: the secret is not in the workflow`);
			}

			// The current webhook works end to end; the secret of the first activation is refused.
			const before = await executions(server, workflowId);
			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed', { cycle: 'after-reactivation' });
			assert.equal(delivery.delivered, true, `ping after reactivation: ${JSON.stringify(delivery)}`);
			const settled = await settleExecutions(server, workflowId, before.length + 1);
			assert.equal(newIds(before, settled).length, 1);

			const stale = await postJson(productionUrl, { event: 'qes.status', sessionId: 'qes-completed-001', stale: true }, { [SECRET_HEADER]: firstSecret });
			assert.equal(stale.status, 401, 'the secret of an earlier activation is refused');
		});

		// ---------------------------------------------------------------------------------------------
		// Ignore Duplicates Within: 5 identical pings start one execution with the option on (default,
		// 10 minutes) and five with it off; one after another, at the same moment and over a restart.

		/** The secrets the two workflows registered (each keeps its own registration's hash). */
		const secrets = {};

		/** Sends `copies` identical pings to `url`, one after another or all at once; returns the answers. */
		async function sendCopies(url, secret, body, { copies = 5, atOnce = false } = {}) {
			const send = async () => await postJson(url, body, { [SECRET_HEADER]: secret });
			if (atOnce) return await Promise.all(Array.from({ length: copies }, send));
			const answers = [];
			for (let i = 0; i < copies; i++) answers.push(await send());
			return answers;
		}

		/** Waits until `expected` new executions of the workflow have finished (and no more come), returns their ids. */
		async function newExecutions(id, before, expected) {
			const settled = await settleExecutions(server, id, before.length + expected, { quietMs: 3000 });
			return newIds(before, settled);
		}

		const isDuplicateAnswer = (res) => res.status === 200 && res.data?.started === false && res.data?.reason === 'duplicate ping';

		step('with the option off (a second workflow) and on: 5 identical pings one after another start 5 and 1 executions', async () => {
			secrets.on = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];
			const countBefore = await routeCount(sandbox, CONFIGURE);
			await server.activateWorkflow(offWorkflowId);
			await waitForActivation({
				sandbox,
				server,
				workflowId: offWorkflowId,
				nodeName: TRIGGER_NAME,
				url: offUrl,
				configureRoute: CONFIGURE,
				configureCount: countBefore + 1,
				secretHeader: SECRET_HEADER,
			});
			secrets.off = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];

			const body = { event: 'qes.status', sessionId: `dup-seq-${version}`, status: 'completed', timestamp: new Date().toISOString() };
			const beforeOn = await executions(server, workflowId);
			const beforeOff = await executions(server, offWorkflowId);
			const on = await sendCopies(productionUrl, secrets.on, body);
			const off = await sendCopies(offUrl, secrets.off, body);

			assert.deepEqual(on[0].status, 200);
			assert.deepEqual(on[0].data, { received: true, started: true }, 'the first copy is answered by the trigger');
			assert.ok(on.slice(1).every(isDuplicateAnswer), `copies 2-5 are answered as duplicates: ${JSON.stringify(on.map((r) => [r.status, r.data]))}`);
			assert.ok(off.every((r) => r.status === 200), `option off: all answered 200: ${JSON.stringify(off.map((r) => r.status))}`);

			assert.equal((await newExecutions(workflowId, beforeOn, 1)).length, 1, 'option on: one execution');
			assert.equal((await newExecutions(offWorkflowId, beforeOff, 5)).length, 5, 'option off: five executions');
		});

		step('5 identical pings at the same moment start 1 execution with the option on, 5 with it off', async () => {
			const body = { event: 'qes.status', sessionId: `dup-once-${version}`, status: 'completed', timestamp: new Date().toISOString() };
			const beforeOn = await executions(server, workflowId);
			const beforeOff = await executions(server, offWorkflowId);
			const [on, off] = await Promise.all([
				sendCopies(productionUrl, secrets.on, body, { atOnce: true }),
				sendCopies(offUrl, secrets.off, body, { atOnce: true }),
			]);
			assert.ok([...on, ...off].every((r) => r.status === 200), `all answered 200: ${JSON.stringify([...on, ...off].map((r) => r.status))}`);
			assert.equal(on.filter(isDuplicateAnswer).length, 4, `4 of the 5 simultaneous copies are duplicates: ${JSON.stringify(on.map((r) => r.data))}`);

			const addedOn = await newExecutions(workflowId, beforeOn, 1);
			assert.equal(addedOn.length, 1, 'option on: one execution');
			assert.equal((await newExecutions(offWorkflowId, beforeOff, 5)).length, 5, 'option off: five executions');
			const [item] = nodeOutput((await server.getExecution(addedOn[0])).data, TRIGGER_NAME);
			assert.equal(item.sessionId, body.sessionId, 'the execution holds the ping');
		});

		step('an n8n restart registers nothing again and the registrations survive it; the duplicate memory is the process\'s: after it, the first copy starts once more, the later ones are duplicates', async () => {
			const countBefore = await routeCount(sandbox, CONFIGURE);
			const webhookBefore = await storedWebhook(sandbox); // the off workflow's, activated last
			const registrations = async () => await Promise.all([workflowId, offWorkflowId].map(async (id) => (await nodeStaticData(server, id, TRIGGER_NAME))?.registration));
			const registrationsBefore = await registrations();
			const body = { event: 'qes.status', sessionId: `dup-restart-${version}`, status: 'completed', timestamp: new Date().toISOString() };
			const beforeOn = await executions(server, workflowId);
			const beforeOff = await executions(server, offWorkflowId);
			const [firstOn] = await sendCopies(productionUrl, secrets.on, body, { copies: 1 });
			const [firstOff] = await sendCopies(offUrl, secrets.off, body, { copies: 1 });
			assert.deepEqual([firstOn.status, firstOff.status], [200, 200]);
			assert.equal((await newExecutions(workflowId, beforeOn, 1)).length, 1);
			assert.equal((await newExecutions(offWorkflowId, beforeOff, 1)).length, 1);
			// No delivery writes static data (a blob rewritten on every ping failed under load).
			assert.equal((await nodeStaticData(server, workflowId, TRIGGER_NAME))?.recentPings, undefined, 'no pings in static data');

			await server.stop();
			server = null;
			server = await instance.startServer({ port, env: serverEnv(port) });
			timings.restartMs = server.startupMs;
			await server.ensureLoggedIn();
			// n8n may answer /healthz before it has activated the workflows again; it serves a webhook just
			// before it asks the node whether it is registered, so a late configureWebhook call would come
			// within moments.
			await waitUntil('the restarted n8n to serve both production webhooks', async () => (await probeWebhook(productionUrl)) === 401 && (await probeWebhook(offUrl)) === 401);
			await util.sleep(1500);
			assert.equal(await routeCount(sandbox, CONFIGURE), countBefore, 'no configureWebhook call on restart (checkExists was true)');
			assert.deepEqual(await storedWebhook(sandbox), webhookBefore, 'the emulator still holds the same webhook');
			assert.deepEqual(await registrations(), registrationsBefore, 'the registrations survived');

			// The provider's ping, with the secret of the activation before the restart, is accepted.
			const offBeforePing = await executions(server, offWorkflowId);
			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed', { after: 'restart' });
			assert.equal(delivery.delivered, true, `ping after restart: ${JSON.stringify(delivery)}`);
			const [added] = await newExecutions(offWorkflowId, offBeforePing, 1);
			const execution = await server.getExecution(added);
			const [item] = nodeOutput(execution.data, TRIGGER_NAME);
			assert.equal(item.after, 'restart');
			assert.equal(item.verification?.data?.isVerified, true);
			assert.ok(!JSON.stringify(execution).includes(webhookBefore.metadata.authHeader[SECRET_HEADER]), 'the secret is not in the execution');

			// The restart forgot the ping sent before it: its first copy after it starts, the 3 later ones are duplicates.
			const on = [...(await sendCopies(productionUrl, secrets.on, body, { copies: 2 })), ...(await sendCopies(productionUrl, secrets.on, body, { copies: 2, atOnce: true }))];
			const off = [...(await sendCopies(offUrl, secrets.off, body, { copies: 2 })), ...(await sendCopies(offUrl, secrets.off, body, { copies: 2, atOnce: true }))];
			assert.deepEqual(on.map(isDuplicateAnswer), [false, true, true, true], `after the restart: ${JSON.stringify(on.map((r) => [r.status, r.data]))}`);
			assert.ok([...on, ...off].every((r) => r.status === 200));
			assert.equal((await newExecutions(workflowId, beforeOn, 2)).length, 2, 'option on: the ping before the restart and its first copy after it');
			assert.equal((await newExecutions(offWorkflowId, offBeforePing, 5)).length, 5, 'option off: the ping and four copies');
		});

		step('a 10,000-level ping and a 5 MB ping each start one execution with their body; forged copies start nothing', async () => {
			const depth = 10_000;
			const deep = `{"event":"qes.status","sessionId":"deep-${version}","status":"completed","payload":${'{"a":'.repeat(depth)}{"end":true}${'}'.repeat(depth)}}`;
			const rows = Array.from({ length: 80_000 }, (_, i) => ({ id: i, name: `row ${i}`, flags: { ok: i % 2 === 0, tags: ['a', 'b'] } }));
			const big = JSON.stringify({ event: 'qes.status', sessionId: `big-${version}`, status: 'completed', rows });
			assert.ok(big.length > 5 * 1024 * 1024, `the big ping has ${big.length} bytes`);

			for (const [label, text, url, secret] of [
				['deep, option on', deep, productionUrl, secrets.on],
				['big, option on', big, productionUrl, secrets.on],
				['deep, option off', deep, offUrl, secrets.off],
			]) {
				const id = url === productionUrl ? workflowId : offWorkflowId;
				const before = await executions(server, id);
				const forged = await postJson(url, text, { [SECRET_HEADER]: crypto.randomBytes(32).toString('hex') });
				assert.equal(forged.status, 401, `${label}: a forged copy is refused`);
				const res = await postJson(url, text, { [SECRET_HEADER]: secret });
				assert.equal(res.status, 200, `${label}: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
				if (url === productionUrl) assert.ok(isDuplicateAnswer(await postJson(url, text, { [SECRET_HEADER]: secret })), `${label}: its copy is a duplicate`);
				const [added] = await newExecutions(id, before, 1);
				const execution = await server.getExecution(added);
				assert.equal(execution.status, 'success', `${label}: the execution succeeded`);
				const [item] = nodeOutput(execution.data, TRIGGER_NAME);
				assert.equal(item.status, 'completed');
				if (text === deep) {
					assert.equal(item.sessionId, `deep-${version}`);
					let level = item.payload;
					let count = 0;
					while (level && level.a !== undefined) {
						level = level.a;
						count++;
					}
					assert.equal(count, depth, `${label}: all ${depth} levels reached the execution`);
					assert.equal(level.end, true);
				} else {
					assert.equal(item.rows.length, rows.length, `${label}: every row reached the execution`);
				}
			}
		});
	});
}

for (const version of versions) defineSuite(version);

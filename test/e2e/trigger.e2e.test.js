'use strict';
// The trigger on QES status pings (source qesStatus) in a real n8n server, against the emulator. The
// steps build on each other (activation state, execution counts): a later one is skipped when one
// failed. A second workflow with Ignore Duplicates Within 0 is the "option off" side of the duplicate
// checks. A wrong, missing, short, long or empty secret header (401, nothing starts) is
// test/nodes/qes-trigger.test.ts; the first ping's execution is the golden workflow trigger-qes.

const { describe } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { nodeOutput } = require('./lib/instance');
const util = require('./lib/util');
const {
	CONFIGURE,
	QES_TRIGGER,
	SECRET_HEADER,
	countExecutions,
	e2eVersions,
	emulatorPing,
	nestedJson,
	nesting,
	nodeStaticData,
	postJson,
	probeWebhook,
	qesWorkflow,
	routeCount,
	settleCount,
	storedWebhook,
	triggerSuite,
	waitForActivation,
	waitForDeactivation,
	waitUntil,
} = require('./trigger-helpers');

for (const version of e2eVersions()) {
	describe(`Trigger on QES status pings in a running n8n ${version === 'v2' ? '2.x' : '1.x'} (${version})`, () => {
		// `off` is the same trigger with Ignore Duplicates Within 0, activated later.
		const suite = triggerSuite({
			version,
			name: 'trigger',
			workflows: ({ api }) => ({
				on: qesWorkflow(`QES trigger e2e (${version})`, api, { fetchVerification: true }),
				off: qesWorkflow(`QES trigger e2e, duplicates not ignored (${version})`, api, { fetchVerification: true, dedupMinutes: 0 }),
			}),
		});
		const { step, ids, urls } = suite;

		/** Waits for an activation to take effect (n8n 2.x applies it after the REST call returns). */
		const activated = async (configureCount) => await waitForActivation(suite, ids.on, urls.on, configureCount);

		/** Waits until `expected` new executions of the workflow have finished (and no more come), returns their ids, newest first. */
		async function newExecutions(id, before, expected) {
			return await settleCount(suite.server, id, before + expected, { fresh: expected });
		}

		step('activation registers the production webhook URL with the secret header, once', async () => {
			const { sandbox, server } = suite;
			assert.equal(await storedWebhook(sandbox), null, 'the emulator starts without a webhook');
			assert.equal(await routeCount(sandbox, CONFIGURE), 0);
			assert.equal(await probeWebhook(urls.on), 404, 'no production webhook before activation');

			await server.activateWorkflow(ids.on);
			const { webhook, registration } = await activated(1); // exactly one configureWebhook call

			assert.equal(webhook.url, urls.on, "the stored URL is n8n's production webhook URL of the trigger");
			assert.deepEqual(Object.keys(webhook.metadata?.authHeader ?? {}), [SECRET_HEADER], `metadata: ${JSON.stringify(webhook.metadata)}`);
			const secret = webhook.metadata.authHeader[SECRET_HEADER];
			assert.match(secret, /^[0-9a-f]{64}$/, 'the secret is 32 random bytes in hex');
			// What the node keeps in static data matches what the emulator got: the secret's hash, not the secret.
			const expected = { webhookUrl: urls.on, secretHeader: SECRET_HEADER, secretSha256: util.sha256(secret) };
			assert.deepEqual(registration, expected, 'static data holds only what the trigger reads, the SHA-256 of the secret');
			const workflowJson = JSON.stringify(await server.getWorkflow(ids.on));
			assert.ok(!workflowJson.includes(secret), 'the plaintext secret is nowhere in GET /rest/workflows/:id');
		});

		step('deactivating and activating again registers once more; the emulator holds the current webhook, the earlier secret is refused', async () => {
			const { sandbox, server } = suite;
			const countBefore = await routeCount(sandbox, CONFIGURE);
			const previous = await storedWebhook(sandbox);

			await server.deactivateWorkflow(ids.on);
			await waitForDeactivation(server, ids.on, urls.on);
			assert.equal(await routeCount(sandbox, CONFIGURE), countBefore, 'deactivation calls nothing');

			await server.activateWorkflow(ids.on);
			const { webhook, registration } = await activated(countBefore + 1); // exactly one call per activation
			assert.equal(webhook.url, urls.on, 'same production URL');
			assert.notEqual(webhook.id, previous.id, 'the emulator replaced the webhook');
			const secret = webhook.metadata.authHeader[SECRET_HEADER];
			assert.equal(registration.secretSha256, util.sha256(secret), "n8n holds the emulator's current webhook");
			assert.notEqual(secret, previous.metadata.authHeader[SECRET_HEADER], 'a new activation registers a new secret');
			assert.ok(!JSON.stringify(await server.getWorkflow(ids.on)).includes(secret), 'the secret is not in the workflow');

			// The current webhook works end to end; the secret of the earlier activation is refused.
			const before = await countExecutions(server, ids.on);
			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed', { cycle: 'after-reactivation' });
			assert.equal(delivery.delivered, true, `ping after reactivation: ${JSON.stringify(delivery)}`);
			await newExecutions(ids.on, before, 1);

			const stale = await postJson(urls.on, { event: 'qes.status', sessionId: 'qes-completed-001', stale: true }, { [SECRET_HEADER]: previous.metadata.authHeader[SECRET_HEADER] });
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

		const isDuplicateAnswer = (res) => res.status === 200 && res.data?.started === false && res.data?.reason === 'duplicate ping';

		step('with the option off (a second workflow) and on: 5 identical pings, one after another and then at the same moment, start 5 and 1 executions', async () => {
			const { sandbox, server } = suite;
			secrets.on = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];
			const configureCount = (await routeCount(sandbox, CONFIGURE)) + 1;
			await server.activateWorkflow(ids.off);
			await waitForActivation(suite, ids.off, urls.off, configureCount);
			secrets.off = (await storedWebhook(sandbox)).metadata.authHeader[SECRET_HEADER];

			for (const atOnce of [false, true]) {
				const what = atOnce ? 'at the same moment' : 'one after another';
				const body = { event: 'qes.status', sessionId: `dup-${atOnce ? 'once' : 'seq'}-${version}`, status: 'completed', timestamp: new Date().toISOString() };
				const [beforeOn, beforeOff] = [await countExecutions(server, ids.on), await countExecutions(server, ids.off)];
				const [on, off] = await Promise.all([sendCopies(urls.on, secrets.on, body, { atOnce }), sendCopies(urls.off, secrets.off, body, { atOnce })]);

				const started = on.filter((r) => !isDuplicateAnswer(r));
				assert.deepEqual(started.map((r) => [r.status, r.data]), [[200, { received: true, started: true }]], `${what}: one copy is answered by the trigger, 4 as duplicates: ${JSON.stringify(on.map((r) => [r.status, r.data]))}`);
				if (!atOnce) assert.equal(started[0], on[0], 'the first copy is the one that started');
				assert.ok(off.every((r) => r.status === 200), `${what}, option off: all answered 200: ${JSON.stringify(off.map((r) => r.status))}`);

				const [addedOn] = await newExecutions(ids.on, beforeOn, 1);
				await newExecutions(ids.off, beforeOff, 5);
				const [item] = nodeOutput((await server.getExecution(addedOn)).data, QES_TRIGGER);
				assert.equal(item.sessionId, body.sessionId, `${what}: the execution holds the ping`);
			}
		});

		step('an n8n restart registers nothing again and the registrations survive it; the duplicate memory is the process\'s: after it, the first copy starts once more, the later ones are duplicates', async () => {
			const { sandbox } = suite;
			const countBefore = await routeCount(sandbox, CONFIGURE);
			const webhookBefore = await storedWebhook(sandbox); // the off workflow's, activated last
			const registrations = async () => await Promise.all([ids.on, ids.off].map(async (id) => (await nodeStaticData(suite.server, id, QES_TRIGGER))?.registration));
			const registrationsBefore = await registrations();
			const body = { event: 'qes.status', sessionId: `dup-restart-${version}`, status: 'completed', timestamp: new Date().toISOString() };
			const beforeOn = await countExecutions(suite.server, ids.on);
			const [firstOn] = await sendCopies(urls.on, secrets.on, body, { copies: 1 });
			assert.deepEqual([firstOn.status, firstOn.data], [200, { received: true, started: true }]);
			await newExecutions(ids.on, beforeOn, 1);
			// No delivery writes static data (a blob rewritten on every ping failed under load).
			assert.equal((await nodeStaticData(suite.server, ids.on, QES_TRIGGER))?.recentPings, undefined, 'no pings in static data');

			await suite.restart();
			const { server } = suite;
			// n8n may answer /healthz before it has activated the workflows again; it serves a webhook just
			// before it asks the node whether it is registered, so a late configureWebhook call would come
			// within moments.
			await waitUntil('the restarted n8n to serve both production webhooks', async () => (await probeWebhook(urls.on)) === 401 && (await probeWebhook(urls.off)) === 401);
			await util.sleep(1500);
			assert.equal(await routeCount(sandbox, CONFIGURE), countBefore, 'no configureWebhook call on restart (checkExists was true)');
			assert.deepEqual(await storedWebhook(sandbox), webhookBefore, 'the emulator still holds the same webhook');
			assert.deepEqual(await registrations(), registrationsBefore, 'the registrations survived');

			// The provider's ping, with the secret of the activation before the restart, is accepted.
			const offBeforePing = await countExecutions(server, ids.off);
			const delivery = await emulatorPing(sandbox, 'qes-completed-001', 'completed', { after: 'restart' });
			assert.equal(delivery.delivered, true, `ping after restart: ${JSON.stringify(delivery)}`);
			const [added] = await newExecutions(ids.off, offBeforePing, 1);
			const execution = await server.getExecution(added);
			const [item] = nodeOutput(execution.data, QES_TRIGGER);
			assert.equal(item.after, 'restart');
			assert.equal(item.verification?.data?.isVerified, true);
			assert.ok(!JSON.stringify(execution).includes(webhookBefore.metadata.authHeader[SECRET_HEADER]), 'the secret is not in the execution');

			// The restart forgot the ping sent before it: its first copy after it starts, the 3 later ones are duplicates.
			// (With the option off there is no memory for a restart to forget: the step before holds that side.)
			const on = [...(await sendCopies(urls.on, secrets.on, body, { copies: 2 })), ...(await sendCopies(urls.on, secrets.on, body, { copies: 2, atOnce: true }))];
			assert.deepEqual(on.map((r) => [r.status, isDuplicateAnswer(r)]), [[200, false], [200, true], [200, true], [200, true]], `after the restart: ${JSON.stringify(on.map((r) => [r.status, r.data]))}`);
			await newExecutions(ids.on, beforeOn, 2); // the ping before the restart and its first copy after it
		});

		step('a 10,000-level ping and a 5 MB ping each start one execution with their body; forged copies are answered 401 and start nothing', async () => {
			const { server } = suite;
			const depth = 10_000;
			const deep = `{"event":"qes.status","sessionId":"deep-${version}","status":"completed","payload":${nestedJson(depth)}}`;
			const rows = Array.from({ length: 80_000 }, (_, i) => ({ id: i, name: `row ${i}`, flags: { ok: i % 2 === 0, tags: ['a', 'b'] } }));
			const big = JSON.stringify({ event: 'qes.status', sessionId: `big-${version}`, status: 'completed', rows });
			assert.ok(big.length > 5 * 1024 * 1024, `the big ping has ${big.length} bytes`);

			// (With the option off a deep ping takes the same way, less the duplicate check's hashing.)
			for (const [what, text] of [['deep', deep], ['big', big]]) {
				const before = await countExecutions(server, ids.on);
				const forged = await postJson(urls.on, text, { [SECRET_HEADER]: crypto.randomBytes(32).toString('hex') });
				assert.equal(forged.status, 401, `${what}: a forged copy is refused`);
				const res = await postJson(urls.on, text, { [SECRET_HEADER]: secrets.on });
				assert.equal(res.status, 200, `${what}: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
				assert.ok(isDuplicateAnswer(await postJson(urls.on, text, { [SECRET_HEADER]: secrets.on })), `${what}: its copy is a duplicate`);
				const [added] = await newExecutions(ids.on, before, 1); // exactly one: the forged copy started nothing
				const execution = await server.getExecution(added);
				assert.equal(execution.status, 'success', `${what}: the execution succeeded`);
				const [item] = nodeOutput(execution.data, QES_TRIGGER);
				assert.equal(item.status, 'completed');
				if (text === deep) {
					assert.equal(item.sessionId, `deep-${version}`);
					assert.deepEqual(nesting(item.payload), [depth, true], `${what}: all ${depth} levels reached the execution`);
				} else {
					assert.equal(item.rows.length, rows.length, `${what}: every row reached the execution`);
				}
			}
		});
	});
}

'use strict';
// Actions as AI tools run only after a person said yes. n8n 2.40.7: examples/agent-deposit-review.json
// as shipped (AI Agent v3 -> Email (SMTP) human review -> Challenge Deposit), and its variants with
// Send OTP, run in one n8n server; the review e-mails go to an SMTP sink in this process, and the test
// opens their links as a reviewer's browser would. n8n 1.x has no human review: there the actions are
// wired straight to the agent. A scripted model on loopback (lib/review-model.js) plays the agent.
//
// How a waiting review ends (n8n's sources): the review node (a Send-and-Wait node that n8n 2.x turns
// into `<type>HitlTool` at start-up) sends the e-mail and puts the execution to wait; the link resumes
// it with { approved }; the agent (processHitlResponses) then asks the engine to run the gated tool with
// metadata.parentNodeName = the review node, or tells the model "User rejected the tool call ...".
// When nobody answers, n8n's WaitTracker (polling every 60 s) resumes it after the wait limit with no
// approval, which the agent treats as a rejection.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox, SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, emulatorRequests, freshFetch, sleep, e2eVersions } = require('./lib/util');
const { exampleVariant, readExample, sandboxCredential } = require('./lib/workflows');
const { startModelServer, conversation } = require('./lib/model-server');
const { startSmtpSink, REVIEWER_USER_AGENT } = require('./lib/smtp-sink');
const { parse } = require('./lib/compliance-model');
const { reviewModel, AGENT, DEPOSIT, OTP } = require('./lib/review-model');

const VERSIONS = e2eVersions();
const EXAMPLE = readExample('agent-deposit-review.json');
const ROUTES = { aml: 'POST /aml/checkIndividual', deposit: 'POST /payments/challenge-deposit', otp: 'POST /phone-service/verification' };
// n8n's words to the model for a call the reviewer declined (processHitlResponses getDenialMessage).
const REJECTED = /^User rejected the tool call to (Challenge Deposit|Send OTP) \(id: call_\w+\)\. STOP what you are doing/;
const rejection = (content) => parse(content)?.[0]?.output;
const SECRETS = [SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID];
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

const log = (message) => defaultLog(`[agent-review] ${message}`);
const node = (workflow, name) => workflow.nodes.find((n) => n.name === name);
const toolLink = (to) => ({ ai_tool: [[{ node: to, type: 'ai_tool', index: 0 }]] });

const variant = (id, question, edit) => exampleVariant(EXAMPLE, id, question, edit);

/** Send OTP (resource Phone, SMS to the number the model chooses), wired to `to`. */
function addOtp(workflow, to, parameters = {}) {
	workflow.nodes.push({
		id: 'review-otp',
		name: OTP,
		type: 'n8n-nodes-verification-services.verificationServicesTool',
		typeVersion: 1,
		position: [960, 480],
		parameters: { resource: 'phone', operation: 'sendOtp', method: 'sms', phoneNumber: "={{ $fromAI('phoneNumber', 'Phone number in international format', 'string') }}", options: {}, ...parameters },
		credentials: node(workflow, DEPOSIT).credentials,
	});
	workflow.connections[OTP] = toolLink(to);
}

/** Send OTP through its own review node, "Approve Message", a copy of the example's. */
function withReviewedOtp(workflow) {
	const review = structuredClone(node(workflow, 'Approve Deposit'));
	Object.assign(review, { id: 'review-approve-otp', name: 'Approve Message', position: [960, 240] });
	review.parameters.subject = 'Approve a one-time password';
	workflow.nodes.push(review);
	workflow.connections['Approve Message'] = toolLink(AGENT);
	addOtp(workflow, 'Approve Message');
}

/** The review nodes give up after about a second (Options > Limit Wait Time). */
function shortWait(workflow) {
	for (const n of workflow.nodes.filter((x) => x.type.endsWith('HitlTool'))) {
		n.parameters.options.limitWaitTime.values = { limitType: 'afterTimeInterval', resumeAmount: 0.02, resumeUnit: 'minutes' };
	}
}

/** Deposit and OTP straight to the agent: no review node. */
function direct(workflow, parameters = {}) {
	workflow.nodes = workflow.nodes.filter((n) => n.name !== 'Approve Deposit');
	delete workflow.connections['Approve Deposit'];
	workflow.connections[DEPOSIT] = toolLink(AGENT);
	Object.assign(node(workflow, DEPOSIT).parameters, parameters);
	addOtp(workflow, AGENT, parameters);
}

const ask = {
	approved: EXAMPLE.nodes.find((n) => n.name === 'Request').parameters.assignments.assignments[0].value,
	otpApproved: 'Send a one-time password to +43 650 1111111.',
	denied: 'Screen Anna Schmidt (born 12 March 1985). If she is clear, send a challenge deposit, reference deny-4712, and a one-time password to +43 650 2222222.',
	depositTimeout: 'Screen Anna Schmidt (born 12 March 1985). If she is clear, send a challenge deposit, reference timeout-4713.',
	otpTimeout: 'Nobody answers: send a one-time password to +43 650 3333333.',
	direct: 'Screen Anna Schmidt (born 12 March 1985). If she is clear, send a challenge deposit, reference direct-4714, and a one-time password to +43 650 4444444.',
	optIn: 'Screen Anna Schmidt (born 12 March 1985). If she is clear, send a challenge deposit, reference optin-4715, and a one-time password to +43 650 5555555.',
};

for (const version of VERSIONS) {
	const review = version !== 'v1'; // human review of tool calls exists since n8n 2.6
	describe(`actions as AI tools only after a person's approval, n8n ${version}`, { timeout: 20 * 60 * 1000 }, () => {
		let sandbox;
		let model;
		let smtp;
		let n8n;
		let server;
		const waiting = {}; // executions started in before(): the ones that time out
		const ids = {}; // the workflows' ids, by their key in `workflows` (the server chooses them)
		const workflows = {
			directly: variant('reviewDirect0001', ask.direct, (w) => direct(w)),
			optIn: variant('reviewOptIn00001', ask.optIn, (w) => direct(w, { runWithoutHumanReview: true })),
			...(review && {
				example: EXAMPLE,
				otpApproved: variant('reviewOtpApprove', ask.otpApproved, withReviewedOtp),
				denied: variant('reviewDenied0001', ask.denied, withReviewedOtp),
				depositTimeout: variant('reviewDepTimeout', ask.depositTimeout, shortWait),
				otpTimeout: variant('reviewOtpTimeout', ask.otpTimeout, (w) => (withReviewedOtp(w), shortWait(w))),
			}),
		};

		const emulator = async (route, match = () => true) =>
			(await emulatorRequests(sandbox.url, route)).filter((r) => match(r.body));
		const deposits = (reference) => emulator(ROUTES.deposit, (b) => b.description === reference);
		const otps = (digits) => emulator(ROUTES.otp, (b) => b.phoneNumber === digits);
		/** Starts workflows[key] as "Execute workflow" does; returns the execution id without waiting for its end. */
		const start = (key) => server.startWorkflow(ids[key], { trigger: 'Start' });
		/** The review e-mail for `needle` (a reference or a phone number in the call's arguments). */
		const reviewMail = (needle) => smtp.nextMessage((m) => m.html.includes(needle));
		/**
		 * Opens a review link as a reviewer's browser does, once the execution is stored as waiting: the
		 * e-mail goes out before n8n saves the wait, and a link opened in between is answered 500.
		 */
		const open = async (url) => {
			const executionId = new URL(url).pathname.split('/')[2];
			for (let t0 = Date.now(); (await server.getExecution(executionId)).status !== 'waiting'; await sleep(200)) {
				if (Date.now() - t0 > 30000) throw new Error(`execution ${executionId} is not waiting for the review`);
			}
			const res = await freshFetch(url, { headers: { 'user-agent': REVIEWER_USER_AGENT } });
			return { status: res.status, text: await res.text() };
		};
		const told = (question) => conversation(model, question).toolResults;
		const answer = (execution) => nodeOutput(execution, AGENT)?.[0]?.output;

		before(async () => {
			sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
			model = await startModelServer({ script: reviewModel, log });
			smtp = await startSmtpSink();
			n8n = await createInstance(version, { name: 'agent-review' });
			server = await n8n.startServer();
			await server.setupOwner();
			const { workflowIds } = await server.createCredentialsAndWorkflows({
				credentials: [
					sandboxCredential(sandbox.baseUrl),
					{ id: 'openai-test-model', name: 'OpenAI (test model, or your own key)', type: 'openAiApi', data: { apiKey: 'sk-test-model', url: model.baseUrl } },
					{ id: 'smtp-reviewer', name: "SMTP (reviewer's mailbox)", type: 'smtp', data: { host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, user: '', password: '' } },
				],
				workflows: Object.values(workflows),
			});
			Object.keys(workflows).forEach((key, i) => (ids[key] = workflowIds[i]));
			if (review) {
				// n8n resumes a timed-out wait on its next 60 s poll: these start first and end last.
				waiting.deposit = await start('depositTimeout');
				waiting.otp = await start('otpTimeout');
			}
		});

		after(async () => {
			await n8n?.destroy();
			await model?.close();
			await smtp?.close();
			await sandbox?.close();
		});

		// n8n 1.x has no human review: there the actions are wired straight to the agent (below).
		if (review) {
			it('reads: the AML check is served compact, and no secret is in anything the model was shown', async () => {
				const run = await runApproved();
				assert.equal(run.status, 'success', run.data.resultData.error?.message);
				const [screening] = told(ask.approved).filter((t) => t.name === 'Screen_Person');
				const [summary] = parse(screening.content);
				assert.deepEqual({ isHit: summary.isHit, totalHits: summary.totalHits }, { isHit: false, totalHits: 0 });
				assert.ok(screening.content.length < 600, `compact: ${screening.content.length} characters`);
				for (const r of await emulator(ROUTES.aml)) assert.deepEqual(r.body, { name: 'Anna Schmidt', dob: '1985/03/12' });
				log(`${version}: the model read the screening (${screening.content.length} characters): ${screening.content}`);
			});

			// The example as shipped: approved by the reviewer, one deposit with the model's arguments.
			let approvedRun;
			async function runApproved() {
				if (approvedRun) return approvedRun;
				const id = await start('example');
				const mail = await reviewMail('onboarding-4711');
				log(`${version}: review e-mail "${mail.subject}" to ${mail.to}: ${mail.html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 400)}`);
				assert.equal((await deposits('onboarding-4711')).length, 0, 'nothing is sent before the approval');
				const { approve, decline } = smtp.links(mail);
				assert.ok(approve && decline, 'the e-mail has an approve and a decline link');
				assert.equal((await open(approve)).status, 200);
				approvedRun = await server.waitForExecution(id);
				approvedRun.mail = mail;
				return approvedRun;
			}

			it('approved: exactly one deposit with the model\'s arguments, and its receipt reaches the model', async () => {
				const run = await runApproved();
				assert.match(run.mail.html, /Challenge_Deposit/);
				assert.match(run.mail.html, /onboarding-4711/, "the reviewer sees the call's arguments");
				const sent = await deposits('onboarding-4711');
				assert.deepEqual(
					sent.map((r) => r.body),
					[{ amount: '0.01', currency: 'EUR', description: 'onboarding-4711', firstName: 'Anna', lastName: 'Schmidt', piiToggle: 0, nameMatchLogic: 'fuzzy' }],
				);
				const result = told(ask.approved).find((t) => t.name === 'Challenge_Deposit');
				const [receipt] = parse(result.content);
				assert.match(receipt.transactionId, /^[0-9a-f-]{36}$/);
				assert.equal(receipt.status, 'OK');
				assert.match(answer(run), new RegExp(receipt.transactionId));
				log(`${version}: approved: the emulator received ${JSON.stringify(sent.map((r) => r.body))}; the model was told ${result.content}`);
			});

			it('approved: one OTP to the number the model chose, and its referenceId reaches the model', async () => {
				const id = await start('otpApproved');
				const mail = await reviewMail('1111111');
				assert.equal((await otps('436501111111')).length, 0, 'nothing is sent before the approval');
				assert.equal((await open(smtp.links(mail).approve)).status, 200);
				const run = await server.waitForExecution(id);
				assert.equal(run.status, 'success', run.data.resultData.error?.message);
				const sent = await otps('436501111111');
				assert.deepEqual(sent.map((r) => r.body), [{ method: 'sms', phoneNumber: '436501111111' }]);
				const result = told(ask.otpApproved).find((t) => t.name === 'Send_OTP');
				const [receipt] = parse(result.content);
				assert.match(receipt.referenceId, /^[0-9a-f]{32}$/);
				assert.match(answer(run), new RegExp(receipt.referenceId));
				log(`${version}: OTP approved: the emulator received ${JSON.stringify(sent.map((r) => r.body))}; the model was told ${result.content}`);
			});

			it('denied: nothing is sent, and the model is told the reviewer rejected the call', async () => {
				const id = await start('denied');
				assert.equal((await open(smtp.links(await reviewMail('deny-4712')).decline)).status, 200);
				assert.equal((await open(smtp.links(await reviewMail('2222222')).decline)).status, 200);
				const run = await server.waitForExecution(id);
				assert.equal(run.status, 'success', run.data.resultData.error?.message);
				const results = told(ask.denied).filter((t) => ['Challenge_Deposit', 'Send_OTP'].includes(t.name));
				assert.equal(results.length, 2);
				for (const r of results) assert.match(rejection(r.content), REJECTED);
				assert.equal((await deposits('deny-4712')).length, 0);
				assert.equal((await otps('436502222222')).length, 0);
				log(`${version}: denied: nothing sent; the model was told ${results.map((r) => r.content).join(' | ')}`);
			});

			it('no answer before the review times out: nothing is sent, and the model is told', { timeout: 5 * 60 * 1000 }, async () => {
				assert.ok(await reviewMail('timeout-4713'));
				assert.ok(await reviewMail('3333333'));
				const t0 = Date.now();
				const runs = [await server.waitForExecution(waiting.deposit, { timeoutMs: 150000 }), await server.waitForExecution(waiting.otp, { timeoutMs: 150000 })];
				for (const run of runs) assert.equal(run.status, 'success', run.data.resultData.error?.message);
				const results = [...told(ask.depositTimeout), ...told(ask.otpTimeout)].filter((t) => ['Challenge_Deposit', 'Send_OTP'].includes(t.name));
				assert.equal(results.length, 2);
				for (const r of results) assert.match(rejection(r.content), REJECTED);
				assert.equal((await deposits('timeout-4713')).length, 0);
				assert.equal((await otps('436503333333')).length, 0);
				log(`${version}: timed out (resumed ${Date.now() - t0} ms after the other cases): nothing sent; the model was told ${results.map((r) => r.content).join(' | ')}`);
			});
		}

		it('wired straight to the agent: refused in words, nothing sent; reads still served', async () => {
			const run = await server.runWorkflow(ids.directly, { trigger: 'Start' });
			assert.equal(run.status, 'success', run.data.resultData.error?.message);
			const results = told(ask.direct);
			const screening = parse(results.find((t) => t.name === 'Screen_Person').content)[0];
			assert.equal(screening.isHit, false, 'the read was served');
			for (const name of ['Challenge_Deposit', 'Send_OTP']) {
				const [item] = parse(results.find((t) => t.name === name).content);
				assert.match(item.error, /not run|no person approved/i, `${name}: ${item.error}`);
				assert.match(item.description, /human review/i);
				assert.match(item.description, /Run Without Human Review/);
			}
			assert.match(parse(results.find((t) => t.name === 'Challenge_Deposit').content)[0].error, /money/i);
			assert.match(parse(results.find((t) => t.name === 'Send_OTP').content)[0].error, /message/i);
			assert.equal((await deposits('direct-4714')).length, 0);
			assert.equal((await otps('436504444444')).length, 0);
			log(`${version}: straight to the agent: nothing sent; the model was told ${results.map((r) => `${r.name}: ${r.content}`).join(' | ')}`);
		});

		it('with Run Without Human Review on: each action sent once', async () => {
			const run = await server.runWorkflow(ids.optIn, { trigger: 'Start' });
			assert.equal(run.status, 'success', run.data.resultData.error?.message);
			assert.equal((await deposits('optin-4715')).length, 1);
			assert.equal((await otps('436505555555')).length, 1);
			const results = told(ask.optIn);
			assert.match(parse(results.find((t) => t.name === 'Challenge_Deposit').content)[0].transactionId, /^[0-9a-f-]{36}$/);
			assert.match(parse(results.find((t) => t.name === 'Send_OTP').content)[0].referenceId, /^[0-9a-f]{32}$/);
			log(`${version}: opted in: one deposit and one OTP; the model was told ${results.map((r) => `${r.name}: ${r.content}`).join(' | ')}`);
		});

		it('no secret in anything the model was shown (API key, customer ID, access token)', () => {
			assert.ok(model.requests.length > 0);
			for (const r of model.requests) {
				const text = JSON.stringify(r.body);
				for (const secret of SECRETS) assert.ok(!text.includes(secret), 'a secret reached the model');
				assert.doesNotMatch(text, JWT, 'an access token reached the model');
			}
		});
	});
}

'use strict';
// The onboarding pipelines in a running n8n server (`n8n start`, 2.40 and 1.123) against the sandbox
// emulator, the way their users run them:
//   examples/phone-otp.json       sign-up webhook -> Send OTP -> hand out the resume URL -> Wait for the
//                                 code -> Check OTP -> branch on otpVerified
//   examples/qes-onboarding.json  webhook -> Create Session Link -> "e-mail"; the person signs (emulator
//                                 control) -> the provider's ping -> QES trigger -> signed document
// (examples/document-journey.json starts with a Manual Trigger and runs in operations.e2e.test.js.)

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

const { nodeOutput, nodeError } = require('./lib/instance');
const { exampleSuite } = require('./lib/example-server');
const { readExample: example } = require('./lib/workflows');
const util = require('./lib/util');
const { control, postJson, waitUntil, executions } = require('./trigger-helpers');

const CHECK_ROUTE = 'PATCH /phone-service/verification/:referenceId';
const LINK_ROUTE = 'POST /onboarding/createSessionLink';

const versions = util.e2eVersions();
const log = (msg) => util.defaultLog(`[onboarding] ${msg}`);

for (const version of versions) {
	describe(`onboarding pipelines in a running n8n ${version}`, () => {
		const started = Date.now();
		// The QES trigger registers n8n's URL with the API on activation.
		const ready = async ({ sandbox, server }) => {
			await waitUntil('the QES trigger to configure its webhook', async () => (await control(sandbox, 'GET', '/webhook')).status === 200);
			log(`${version}: set up in ${((Date.now() - started) / 1000).toFixed(1)} s (server start ${server.startupMs} ms)`);
		};
		const suite = exampleSuite(version, { name: 'onboarding', log, workflows: [example('phone-otp.json'), example('qes-onboarding.json')], ready });
		const requests = async (route) => (await util.emulatorRequests(suite.sandbox.url, route));
		/** The newest finished execution of a workflow that `before` (a list of executions) did not have. */
		const nextExecution = async (workflowId, before) => {
			const seen = new Set(before.map((e) => String(e.id)));
			const fresh = await waitUntil(`a new execution of ${workflowId}`, async () =>
				(await executions(suite.server, workflowId)).find((e) => !seen.has(String(e.id)) && !['new', 'running', 'waiting'].includes(e.status)),
			);
			return await suite.server.getExecution(fresh.id);
		};

		/** Signs up through the phone example: its answer {referenceId, sentTo, submitCodeUrl} and the code "sent". */
		async function signUp(phoneNumber) {
			const res = await postJson(`${suite.base}/webhook/phone-otp/start`, { phoneNumber });
			assert.equal(res.status, 200, `sign-up answered ${res.status}: ${JSON.stringify(res.data)}`);
			const { referenceId, sentTo, submitCodeUrl } = res.data;
			assert.match(referenceId, /^[0-9a-f]{32}$/);
			assert.ok(submitCodeUrl.startsWith(`${suite.base}/webhook-waiting/`), `submitCodeUrl: ${submitCodeUrl}`);
			const messages = (await control(suite.sandbox, 'GET', `/phone/messages?referenceId=${referenceId}`)).body;
			assert.equal(messages.length, 1, 'one message sent');
			return { referenceId, sentTo, submitCodeUrl, code: messages[0].code, executionId: new URL(submitCodeUrl).pathname.split('/').pop() };
		}

		/** Posts the typed code to the waiting execution and returns the finished execution. */
		async function submitCode(signup, code) {
			// Respond to Webhook answers the page before the Wait node has parked the execution.
			await waitUntil('the execution to wait for the code', async () => (await suite.server.getExecution(signup.executionId)).status === 'waiting');
			const res = await postJson(signup.submitCodeUrl, { code });
			assert.ok(res.status >= 200 && res.status < 300, `code submission answered ${res.status}: ${JSON.stringify(res.data)}`);
			// n8n 1.x may show the final status before the final data (see getExecution in lib/rest.js);
			// a resumed execution's earlier data looks complete (it ends at the Wait node), so on a loaded
			// machine it came back finished (success, once error) without Check OTP. Wait for Check OTP's
			// run to appear; give up on it 10 s after the status changed.
			let finishedAt;
			return await waitUntil(`execution ${signup.executionId} to finish after the code`, async () => {
				const execution = await suite.server.getExecution(signup.executionId);
				if (['new', 'running', 'waiting'].includes(execution.status)) return null;
				const ranCheck = nodeOutput(execution.data, 'Check OTP') !== undefined || nodeError(execution.data, 'Check OTP');
				finishedAt ??= Date.now();
				return ranCheck || Date.now() - finishedAt > 10000 ? execution : null;
			});
		}

		test('phone-otp.json: the right code takes the "Phone Verified" branch', async () => {
			const signup = await signUp('+43 650 123 4567');
			assert.equal(signup.sentTo, '436501234567', 'Send OTP cleaned the typed number');
			const execution = await submitCode(signup, signup.code);
			assert.equal(execution.status, 'success');
			const [checked] = nodeOutput(execution.data, 'Check OTP');
			assert.equal(checked.otpVerified, true);
			assert.equal(checked.otpStatusCode, 3900);
			assert.equal(JSON.stringify(checked).includes(signup.code), false, 'the code is not in the Check OTP output');
			assert.deepEqual(nodeOutput(execution.data, 'Phone Verified'), [
				{ verified: true, referenceId: signup.referenceId, phoneNumber: '436501234567' },
			]);
			assert.equal(nodeOutput(execution.data, 'Wrong Code'), undefined);
			const checks = (await requests(CHECK_ROUTE)).filter((r) => r.params.referenceId === signup.referenceId);
			assert.deepEqual(checks.map((r) => r.body), [{ securityFactor: signup.code }]);
		});

		test('phone-otp.json: a wrong code is an answer and takes the "Wrong Code" branch', async () => {
			const signup = await signUp('+49 151 1234 5678');
			const wrong = signup.code === '000000' ? '111111' : '000000';
			const execution = await submitCode(signup, wrong);
			assert.equal(execution.status, 'success', 'a wrong code does not fail the execution');
			assert.deepEqual(nodeOutput(execution.data, 'Wrong Code'), [
				{ verified: false, referenceId: signup.referenceId, statusCode: 3905, reason: 'Invalid security factor' },
			]);
			assert.equal(nodeOutput(execution.data, 'Phone Verified'), undefined);
			const stored = (await control(suite.sandbox, 'GET', `/phone/${signup.referenceId}`)).body;
			assert.equal(stored.state, 'ONGOING');
		});

		test('qes-onboarding.json: the session link goes out, the signed session arrives through the trigger', async () => {
			const before = await executions(suite.server, suite.ids[1]);
			const res = await postJson(`${suite.base}/webhook/qes-onboarding/start`, {
				email: 'erika.mustermann@example.com',
				phoneNumber: '+49 151 12345678',
				customerNumber: 'C-4711',
			});
			assert.equal(res.status, 200, `start answered ${res.status}: ${JSON.stringify(res.data)}`);
			const mail = res.data;
			assert.match(mail.requestId, /^qes-[0-9a-f]{16}$/);
			assert.equal(mail.url, `${suite.sandbox.url}/sign/${mail.requestId}`);
			assert.equal(mail.to, 'erika.mustermann@example.com');
			assert.ok(mail.text.includes(mail.url), 'the e-mail text carries the link');
			const [request] = (await requests(LINK_ROUTE)).filter((r) => r.body.email === 'erika.mustermann@example.com');
			assert.deepEqual(request.body, {
				email: 'erika.mustermann@example.com',
				phoneNumber: '+4915112345678',
				redirectUrl: 'https://example.com/onboarding/done',
				docUrl: 'https://example.com/contracts/contract.pdf',
				signForms: [{ fieldId: 'signature1', actorId: 'userToIdentify' }],
				fillForm: [
					{ fieldId: 'fullName', value: '${identification.firstName} ${identification.lastName}' },
					{ fieldId: 'birthDate', value: '${identification.birthDate}' },
					{ fieldId: 'customerNumber', value: 'C-4711' },
				],
			});
			const linkRun = await nextExecution(suite.ids[1], before);
			assert.equal(linkRun.status, 'success');
			const [link] = nodeOutput(linkRun.data, 'Create Session Link');
			assert.deepEqual([link.url, link.requestId, link.expiresAfter], [link.data.url, link.data.requestId, link.data.expiresAfter]);

			// The person identifies and signs: the provider marks the session completed and pings n8n.
			const afterLink = await executions(suite.server, suite.ids[1]);
			const signed = await control(suite.sandbox, 'POST', `/qes/sessions/${mail.requestId}/state`, { status: 'completed' });
			assert.equal(signed.status, 200);
			assert.equal(signed.body.delivery.delivered, true, `ping delivery: ${JSON.stringify(signed.body.delivery)}`);
			const result = await nextExecution(suite.ids[1], afterLink);
			assert.equal(result.status, 'success');
			const [ping] = nodeOutput(result.data, 'QES Status Ping');
			assert.equal(ping.sessionId, mail.requestId, "the ping names the session link's requestId");
			assert.deepEqual(nodeOutput(result.data, 'Onboarding Complete'), [
				{ sessionId: mail.requestId, verified: true, signer: 'Erika Mustermann', signedDocuments: [`${mail.requestId}-signed.pdf`] },
			]);
		});
	});
}

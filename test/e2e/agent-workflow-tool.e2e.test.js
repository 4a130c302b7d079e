'use strict';
// An action inside a sub-workflow that an AI agent calls as a tool: the review belongs on the workflow
// tool. n8n 2.40.7, one server: examples/agent-deposit-review.json with its Challenge Deposit tool
// replaced by n8n's Call n8n Workflow Tool, whose sub-workflow runs the package's node (Payments ›
// Challenge Deposit, an ordinary node there, not a tool) against the emulator; the workflow tool is
// gated by the example's Email (SMTP) human review. n8n 1.x has no human review: 2.x only.
//
// Why the node inside cannot tell (n8n 2.40.7's sources): the workflow tool (n8n-nodes-langchain
// WorkflowToolService.executeSubWorkflow) calls context.executeWorkflow with the same parentExecution
// { executionId, workflowId, shouldResume } as the Execute Workflow node; the sub-execution always runs
// in mode 'integrated' (cli workflow-execute-additional-data getRunData), and its execution context is
// the parent's (source 'integrated', the parent's trigger node; n8n-core establishExecutionContext). The
// last test shows it in the stored executions: a call from the agent and one from an Execute Workflow
// node look the same to the sub-workflow.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, emulatorRequests, freshFetch, waitUntil, e2eVersions } = require('./lib/util');
const { exampleVariant, readExample, sandboxCredential, SANDBOX_CREDENTIAL_REF } = require('./lib/workflows');
const { startModelServer, conversation } = require('./lib/model-server');
const { startSmtpSink, REVIEWER_USER_AGENT } = require('./lib/smtp-sink');
const { parse } = require('./lib/compliance-model');
const { reviewModel, AGENT, DEPOSIT } = require('./lib/review-model');

const EXAMPLE = readExample('agent-deposit-review.json');
const DEPOSIT_ROUTE = 'POST /payments/challenge-deposit';
const ACTION_TYPE = 'n8n-nodes-verification-services.verificationServices';
const CALLED_BY = 'When Called by a Workflow';
// n8n's words to the model for a call the reviewer declined (processHitlResponses getDenialMessage).
const REJECTED = /^User rejected the tool call to Challenge Deposit \(id: call_\w+\)\. STOP what you are doing/;
const INPUTS = ['reference', 'firstName', 'lastName'];

const log = (message) => defaultLog(`[agent-workflow-tool] ${message}`);
const ask = (reference) => `Screen Anna Schmidt (born 12 March 1985). If she is clear, verify her bank account with a challenge deposit, reference ${reference}.`;

/** The sub-workflow: its inputs -> IDCanopy Umbrella, Payments › Challenge Deposit (the example's amount and currency). */
function depositWorkflow() {
	const { amount, currency, piiToggle, nameMatchLogic } = EXAMPLE.nodes.find((n) => n.name === DEPOSIT).parameters;
	return {
		name: 'e2e: challenge deposit, called by a workflow',
		nodes: [
			{
				id: 'subwf-trigger',
				name: CALLED_BY,
				type: 'n8n-nodes-base.executeWorkflowTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				parameters: { inputSource: 'workflowInputs', workflowInputs: { values: INPUTS.map((name) => ({ name })) } },
			},
			{
				id: 'subwf-deposit',
				name: DEPOSIT,
				type: ACTION_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'payments',
					operation: 'challengeDeposit',
					amount,
					currency,
					description: '={{ $json.reference }}',
					firstName: '={{ $json.firstName }}',
					lastName: '={{ $json.lastName }}',
					piiToggle,
					nameMatchLogic,
					options: {},
				},
				credentials: SANDBOX_CREDENTIAL_REF,
			},
		],
		connections: { [CALLED_BY]: { main: [[{ node: DEPOSIT, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The sub-workflow's inputs as a caller maps them (resource mapper of the workflow tool and of Execute Workflow). */
const workflowInputs = (value) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: INPUTS.map((id) => ({ id, displayName: id, required: false, defaultMatch: false, display: true, canBeUsedToMatch: true, type: 'string' })),
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});
const subWorkflow = (id) => ({ __rl: true, mode: 'id', value: id });

/** The example with Challenge Deposit as a Call n8n Workflow Tool of the sub-workflow, still behind Approve Deposit. */
function agentWorkflow(key, reference, subId) {
	return exampleVariant(EXAMPLE, key, ask(reference), (w) => {
		const i = w.nodes.findIndex((n) => n.name === DEPOSIT);
		w.nodes[i] = {
			id: 'review-deposit-workflow',
			name: DEPOSIT,
			type: '@n8n/n8n-nodes-langchain.toolWorkflow',
			typeVersion: 2.2,
			position: w.nodes[i].position,
			parameters: {
				description: 'Sends a challenge deposit of 0.01 EUR to verify the bank account of a person.',
				source: 'database',
				workflowId: subWorkflow(subId),
				workflowInputs: workflowInputs({
					reference: "={{ $fromAI('reference', 'Reference of the deposit: letters, digits and hyphens only', 'string') }}",
					firstName: "={{ $fromAI('firstName', 'First name of the expected account holder', 'string') }}",
					lastName: "={{ $fromAI('lastName', 'Last name of the expected account holder', 'string') }}",
				}),
			},
		};
	});
}

/** The same sub-workflow called by an Execute Workflow node of an ordinary workflow: no agent. */
function plainWorkflow(reference, subId) {
	const start = EXAMPLE.nodes.find((n) => n.name === 'Start');
	return {
		name: 'e2e: challenge deposit through Execute Workflow',
		nodes: [
			start,
			{
				id: 'plain-execute',
				name: 'Execute Deposit Workflow',
				type: 'n8n-nodes-base.executeWorkflow',
				typeVersion: 1.2,
				position: [220, 0],
				parameters: { source: 'database', workflowId: subWorkflow(subId), workflowInputs: workflowInputs({ reference, firstName: 'Anna', lastName: 'Schmidt' }), mode: 'once', options: {} },
			},
		],
		connections: { Start: { main: [[{ node: 'Execute Deposit Workflow', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** A node's credential references pointed at the credentials the server created (by type). */
function withCredentials(workflow, created) {
	for (const n of workflow.nodes.filter((x) => x.credentials)) {
		n.credentials = Object.fromEntries(Object.keys(n.credentials).map((type) => [type, created[type]]));
	}
	return workflow;
}

/** What a node of the sub-workflow can read about its caller, from the stored sub-execution. */
function callerAsSeenInside(execution) {
	const context = execution.data.executionData?.runtimeData ?? {};
	const parent = execution.data.parentExecution ?? {};
	return {
		mode: execution.mode,
		parentExecution: { keys: Object.keys(parent).sort(), shouldResume: parent.shouldResume },
		context: { source: context.source, triggerNode: context.triggerNode?.type, keys: Object.keys(context).filter((k) => k !== 'establishedAt').sort() },
		input: Object.keys(nodeOutput(execution, CALLED_BY)?.[0] ?? {}).sort(),
		actionType: execution.workflowData.nodes.find((n) => n.name === DEPOSIT).type,
	};
}

describe('an action in a sub-workflow that an agent calls: the review on the workflow tool, n8n v2', { skip: !e2eVersions().includes('v2') && 'n8n 2.x only (human review)', timeout: 10 * 60 * 1000 }, () => {
	let sandbox;
	let model;
	let smtp;
	let n8n;
	let server;
	const ids = {};
	const parentRuns = {};

	const deposits = async (reference) =>
		(await emulatorRequests(sandbox.url, DEPOSIT_ROUTE)).filter((r) => r.body.description === reference);
	const subExecutions = async () => (await server.listExecutions(ids.sub)).filter((e) => !['new', 'running', 'waiting'].includes(e.status));
	/** The finished sub-execution started by the parent execution `parentId`. */
	const subExecutionOf = async (parentId) => {
		for (const e of await subExecutions()) {
			const execution = await server.getExecution(e.id);
			if (execution.data.parentExecution?.executionId === parentId) return execution;
		}
		return undefined;
	};
	/** The review e-mail for `reference`, then its link opened as a reviewer's browser does once the execution waits (a link opened before is answered 500). */
	const answerReview = async (reference, choice) => {
		const mail = await smtp.nextMessage((m) => m.html.includes(reference));
		assert.equal((await deposits(reference)).length, 0, 'nothing is sent before the answer');
		const url = smtp.links(mail)[choice];
		const executionId = new URL(url).pathname.split('/')[2];
		await waitUntil(`execution ${executionId} waiting for the review`, async () => (await server.getExecution(executionId)).status === 'waiting', { timeoutMs: 30000, intervalMs: 200 });
		const res = await freshFetch(url, { headers: { 'user-agent': REVIEWER_USER_AGENT } });
		assert.equal(res.status, 200, await res.text());
		return mail;
	};
	const told = (reference) => conversation(model, ask(reference)).toolResults.find((t) => t.name === 'Challenge_Deposit');

	before(async () => {
		sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
		model = await startModelServer({ script: reviewModel, log });
		smtp = await startSmtpSink();
		n8n = await createInstance('v2', { name: 'agent-workflow-tool' });
		server = await n8n.startServer();
		await server.setupOwner();
		const credentials = [
			sandboxCredential(sandbox.baseUrl),
			{ name: 'OpenAI (test model)', type: 'openAiApi', data: { apiKey: 'sk-test-model', url: model.baseUrl } },
			{ name: "SMTP (reviewer's mailbox)", type: 'smtp', data: { host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, user: '', password: '' } },
		];
		const { credentialIds, workflowIds } = await server.createCredentialsAndWorkflows({ credentials, workflows: [depositWorkflow()] });
		ids.sub = workflowIds[0];
		// The workflow tool runs the sub-workflow's published version (it passes no execution mode).
		await server.activateWorkflow(ids.sub);
		const created = Object.fromEntries(credentials.map((c, i) => [c.type, { id: credentialIds[i], name: c.name }]));
		[ids.approved, ids.denied, ids.plain] = await server.createWorkflows(
			[agentWorkflow('subwfApproved001', 'subwf-4721', ids.sub), agentWorkflow('subwfDenied00001', 'subwf-4722', ids.sub), plainWorkflow('plain-4723', ids.sub)].map((w) =>
				withCredentials(w, created),
			),
		);
	});

	after(async () => {
		await n8n?.destroy();
		await model?.close();
		await smtp?.close();
		await sandbox?.close();
	});

	it('approved: exactly one deposit, sent by the sub-workflow, and its receipt reaches the model', async () => {
		const id = await server.startWorkflow(ids.approved, { trigger: 'Start' });
		const mail = await answerReview('subwf-4721', 'approve');
		assert.match(mail.html, /Challenge_Deposit/);
		const run = (parentRuns.approved = await server.waitForExecution(id));
		assert.equal(run.status, 'success', run.data.resultData.error?.message);
		const sent = await deposits('subwf-4721');
		assert.deepEqual(
			sent.map((r) => r.body),
			[{ amount: '0.01', currency: 'EUR', description: 'subwf-4721', firstName: 'Anna', lastName: 'Schmidt', piiToggle: 0, nameMatchLogic: 'fuzzy' }],
		);
		const sub = await subExecutionOf(id);
		assert.equal(sub?.status, 'success', 'the sub-workflow ran once for this call');
		const [receipt] = parse(told('subwf-4721').content);
		assert.match(receipt.transactionId, /^[0-9a-f-]{36}$/);
		assert.match(nodeOutput(run, AGENT)[0].output, new RegExp(receipt.transactionId));
		log(`approved: the emulator received ${JSON.stringify(sent.map((r) => r.body))}; the model was told ${told('subwf-4721').content}`);
	});

	it('denied: the sub-workflow never runs, nothing is sent, and the model is told', async () => {
		const id = await server.startWorkflow(ids.denied, { trigger: 'Start' });
		await answerReview('subwf-4722', 'decline');
		const run = await server.waitForExecution(id);
		assert.equal(run.status, 'success', run.data.resultData.error?.message);
		assert.match(parse(told('subwf-4722').content)[0].output, REJECTED);
		assert.equal(await subExecutionOf(id), undefined, 'no sub-execution for the declined call');
		assert.equal((await deposits('subwf-4722')).length, 0);
		log(`denied: nothing sent; the model was told ${told('subwf-4722').content}`);
	});

	it('inside the sub-workflow, a call from the agent looks like one from an Execute Workflow node', async () => {
		const agentCall = await subExecutionOf(parentRuns.approved?.id ?? assert.fail('the approved case did not run'));
		const plainRun = await server.runWorkflow(ids.plain, { trigger: 'Start' });
		assert.equal(plainRun.status, 'success', plainRun.data.resultData.error?.message);
		assert.equal((await deposits('plain-4723')).length, 1);
		const plainCall = await waitUntil('the sub-execution of the Execute Workflow node', () => subExecutionOf(plainRun.id));
		const [fromAgent, fromWorkflow] = [callerAsSeenInside(agentCall), callerAsSeenInside(plainCall)];
		log(`inside the sub-workflow: called by the agent's workflow tool ${JSON.stringify(fromAgent)}; by an Execute Workflow node ${JSON.stringify(fromWorkflow)}`);
		assert.deepEqual(fromAgent, fromWorkflow);
		assert.equal(fromAgent.mode, 'integrated');
		assert.equal(fromAgent.actionType, ACTION_TYPE, 'the action is an ordinary node there, not a tool');
		assert.deepEqual(fromAgent.input, [...INPUTS].sort(), 'the inputs are what the caller mapped, nothing more');
	});
});

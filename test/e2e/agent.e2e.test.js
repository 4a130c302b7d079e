'use strict';
// The package's action node as tools of a real n8n AI Agent (n8n 2.40 and 1.123), offline: the agent's
// OpenAI Chat Model talks to a scripted OpenAI-compatible model (lib/model-server.js), the tools talk
// to the sandbox emulator. Runs examples/compliance-agent.json as shipped, and its variants, in one
// n8n server as the editor's "Execute workflow" does.
//
// How n8n hands a tool's result to the model (read in both versions' sources): the Tools Agent (V3)
// does not call the tool itself. It returns an "engine request" (@n8n/n8n-nodes-langchain
// utils/agent-execution/createEngineRequests); n8n-core's WorkflowExecute (requests-response.js
// handleRequest) queues the tool node with `rewireOutputLogTo = ai_tool` and the agent behind it;
// the tool node's output is stored as its ai_tool run data; the resumed agent collects it
// (collectSubNodeResults) and buildSteps.buildObservation gives the model JSON.stringify of the
// items' json, or `""` when the tool's run data holds no ai_tool output. That `""` is what a
// workflow without `settings.executionOrder: "v1"` produces in `n8n execute` and in the server alike:
// with the legacy order the agent is queued to resume before the tool node has run.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { startSandbox } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, emulatorRequests, freshFetch, e2eVersions } = require('./lib/util');
const { exampleVariant, readExample, sandboxCredential } = require('./lib/workflows');
const { startModelServer, conversation } = require('./lib/model-server');
const { complianceModel, toolName, parse, AGENT, AML, KYB } = require('./lib/compliance-model');
const { toolDescription } = require('./lib/package-nodes');

const VERSIONS = e2eVersions();
const EXAMPLE = readExample('compliance-agent.json');
const log = (message) => defaultLog(`[agent] ${message}`);

const variant = (id, question, edit) => exampleVariant(EXAMPLE, id, question, edit);

/** The example started by a Webhook that streams the agent's answer (Respond: Streaming). */
function streamingVariant(id, webhookPath) {
	return variant(id, 'Stream the answer: screen Viktor Sanctioned.', (workflow) => {
		const start = workflow.nodes.find((n) => n.name === 'Start');
		Object.assign(start, {
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			webhookId: '0b6c7c1e-57a5-4d8e-9d33-3f0f3c1d2e4a',
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'streaming', options: {} },
		});
		workflow.nodes.find((n) => n.name === AGENT).parameters.options.enableStreaming = true;
	});
}

for (const version of VERSIONS) {
	describe(`AI Agent with the package's tools, n8n ${version}`, { timeout: 20 * 60 * 1000 }, () => {
		let sandbox;
		let model;
		let n8n;
		let server;
		let run; // the compliance example's execution
		let received;
		const fullOutput = variant('agentFullOutput1', 'Screen Viktor Sanctioned and read the full response.', (workflow) => {
			workflow.nodes.find((n) => n.name === AML).parameters.toolOutput = 'full';
		});
		const hookPath = `agent-stream-${version}`;
		const streaming = streamingVariant('agentStreaming01', hookPath);
		const legacyOrder = variant('agentLegacyOrdr1', 'Legacy order: screen Viktor Sanctioned.', (workflow) => {
			workflow.settings = {}; // no executionOrder: n8n's legacy "v0" order
		});
		const openAi = { id: 'openai-test-model', name: 'OpenAI (test model, or your own key)' };
		const ids = {}; // the workflows' ids (the server chooses them)

		const sandboxRequests = (route) => emulatorRequests(sandbox.url, route);

		before(async () => {
			sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
			model = await startModelServer({ script: complianceModel, log });
			n8n = await createInstance(version, { name: 'agent' });
			server = await n8n.startServer();
			await server.setupOwner();
			const { workflowIds } = await server.createCredentialsAndWorkflows({
				credentials: [
					sandboxCredential(sandbox.baseUrl),
					{ id: openAi.id, name: openAi.name, type: 'openAiApi', data: { apiKey: 'sk-test-model', url: model.baseUrl } },
				],
				workflows: [EXAMPLE, fullOutput, streaming, legacyOrder],
			});
			[ids.example, ids.fullOutput, ids.streaming, ids.legacyOrder] = workflowIds;
			const t0 = Date.now();
			run = await server.runWorkflow(ids.example, { trigger: 'Start' });
			log(`${version}: the compliance example ran in ${Date.now() - t0} ms (${model.requests.length} model requests)`);
			received = {
				aml: await sandboxRequests('POST /aml/checkIndividual'),
				kyb: await sandboxRequests('POST /kyb/search'),
				otp: await sandboxRequests('POST /phone-service/verification'),
			};
		});

		after(async () => {
			await n8n?.destroy();
			await model?.close();
			await sandbox?.close();
		});

		it('runs the compliance example to the end', () => {
			const { error, lastNodeExecuted } = run.data.resultData;
			assert.equal(run.status, 'success', `execution failed: ${error?.message}`);
			assert.equal(lastNodeExecuted, AGENT);
			assert.equal(EXAMPLE.settings.executionOrder, 'v1', 'the example keeps execution order v1');
		});

		it('offers its two reads with the descriptions of the operation tables, and no action (those need a review step)', () => {
			const first = model.requests[0].body;
			const tools = Object.fromEntries(first.tools.map((t) => [t.function.name, t.function]));
			assert.deepEqual(Object.keys(tools).sort(), [toolName(AML), toolName(KYB)].sort());
			assert.equal(tools[toolName(AML)].description, toolDescription('aml', 'checkIndividual'));
			assert.equal(tools[toolName(KYB)].description, toolDescription('kyb', 'search'));
			assert.deepEqual(Object.keys(tools[toolName(AML)].parameters.properties).sort(), ['dob', 'name']);
			assert.deepEqual(Object.keys(tools[toolName(KYB)].parameters.properties), ['companyName']);
		});

		it("a wrong dob reaches the model as a readable error, and nothing is sent for it", () => {
			const [error] = model.toolResults().filter((t) => t.name === toolName(AML));
			const { name, dob } = parse(error.arguments);
			assert.deepEqual({ name, dob }, { name: 'Viktor Sanctioned', dob: '15.01.1970' });
			const [item] = parse(error.content);
			assert.match(item.error, /^Date of Birth \(dob\) must be .*yyyy\/mm\/dd.*got "15\.01\.1970"/);
			assert.match(item.description, /Nothing was sent/);
			assert.ok(!received.aml.some((r) => r.body.dob === '15.01.1970'), 'the invalid dob never reached the API');
			log(`${version}: model-visible validation failure: ${error.content}`);
		});

		it('the emulator received the arguments the model chose', () => {
			assert.deepEqual(received.aml.map((r) => r.body), [{ name: 'Viktor Sanctioned', dob: '1970/01/15' }]);
			assert.deepEqual(received.kyb.map((r) => r.body), [{ name: 'Acme' }]);
			assert.deepEqual(received.otp, [], 'no message: the example offers no action');
			log(`${version}: the emulator received ${JSON.stringify(Object.values(received).flat().map((r) => `${r.route} ${JSON.stringify(r.body)}`))}`);
		});

		it('the model received the screening summary, and the final answer quotes it', () => {
			const screening = model.toolResults().filter((t) => t.name === toolName(AML))[1];
			const [summary] = parse(screening.content);
			assert.equal(summary.isHit, true);
			assert.equal(summary.totalHits, 2);
			assert.deepEqual(summary.hitsBySourceType, { SANCTION: 2, PEP: 0, CRIMINAL: 0 });
			assert.deepEqual(summary.records.map((r) => r.id), ['AML-SAN-0001', 'AML-SAN-0002']);
			assert.equal(summary.foundRecords, undefined, 'the summary, not the whole response');
			log(`${version}: model-visible AML result (${screening.content.length} characters): ${screening.content}`);

			const companies = parse(model.toolResults().find((t) => t.name === toolName(KYB)).content);
			assert.deepEqual(companies.map((c) => c.companyId), ['DE-HRB-123456', 'GB-CH-01234567']);

			const [output] = nodeOutput(run, AGENT);
			assert.match(output.output, /^Do not proceed\. Screening of Viktor Sanctioned: isHit true, totalHits 2, records AML-SAN-0001 \(SANCTION, OFAC-SDN\), AML-SAN-0002 \(SANCTION, EU-CFSP\)\./);
			assert.match(output.output, /Companies found: Acme Holdings GmbH, ACME TRADING LIMITED\./);
		});

		it('Output "Raw" gives the model the whole response', async () => {
			const before = model.toolResults().length;
			const res = await server.runWorkflow(ids.fullOutput, { trigger: 'Start' });
			assert.equal(res.status, 'success', `execution failed: ${res.data.resultData.error?.message}`);
			const screening = model.toolResults().slice(before).find((t) => t.name === toolName(AML));
			const [item] = parse(screening.content);
			assert.equal(item.foundRecords.length, 2);
			assert.deepEqual(item.foundRecords[0].aliasNames, ['Viktor S.', 'V. Sanktioniert']);
			assert.equal(item.screeningSummary.totalHits, 2);
			const summary = model.toolResults().filter((t) => t.name === toolName(AML))[1];
			log(`${version}: AML tool result ${screening.content.length} characters in full, ${summary.content.length} summarised`);
			assert.ok(summary.content.length < screening.content.length / 2, 'the summary is less than half the full response');
		});

		it('a webhook run streams the answer; the model, asked to stream, reads the summary', async (t) => {
			await server.activateWorkflow(ids.streaming);
			const amlBefore = (await sandboxRequests('POST /aml/checkIndividual')).length;

			const reply = await freshFetch(`${server.url}/webhook/${hookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			const chunks = (await reply.text()).split('\n').map(parse).filter(Boolean);
			const streamed = chunks.filter((c) => c.type === 'item').map((c) => c.content).join('');
			const stream = conversation(model, 'Stream');
			assert.equal(reply.status, 200);
			assert.ok(stream.requests.length >= 2 && stream.requests.every((r) => r.body.stream === true), 'n8n asked the model to stream');
			assert.equal(parse(stream.toolResults[0].content)[0].totalHits, 2);
			assert.match(streamed, /^Screening result as received \(\d+ characters\): totalHits 2\.$/);
			assert.equal((await sandboxRequests('POST /aml/checkIndividual')).length, amlBefore + 1);

			// The control behind the finding above: with the legacy execution order the agent resumes
			// before the tool node has run, and the model is shown "" although the API was called.
			const exec = await server.runWorkflow(ids.legacyOrder, { trigger: 'Start' });
			const legacy = conversation(model, 'Legacy order');
			assert.equal(legacy.toolResults.length, 1);
			assert.equal(legacy.toolResults[0].content, '""', 'the legacy order shows the model an empty tool result');
			assert.equal((await sandboxRequests('POST /aml/checkIndividual')).length, amlBefore + 2, 'the tool node still ran');
			t.diagnostic(`legacy order run (${exec.mode}): ${exec.status}; the model was shown ${legacy.toolResults[0].content}`);
		});
	});
}

'use strict';
// Builders for the workflow JSON the e2e tests import.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { newId } = require('./instance');

let nodeCounter = 0;

/** The package's node types. */
const ACTION_TYPE = 'n8n-nodes-verification-services.verificationServices';
const TRIGGER_TYPE = 'n8n-nodes-verification-services.verificationServicesTrigger';

/**
 * A node object. `type` is the full n8n type ('n8n-nodes-base.set', ACTION_TYPE, ...).
 * @param {{ name: string, type: string, typeVersion?: number, parameters?: object,
 *   credentials?: Record<string, {id: string, name: string}>, position?: [number, number], extra?: object }} spec
 */
function node({ name, type, typeVersion = 1, parameters = {}, credentials, position, ...extra }) {
	const n = {
		id: `node-${Date.now().toString(36)}-${(nodeCounter++).toString(36)}`,
		name,
		type,
		typeVersion,
		position: position ?? [nodeCounter * 220, 300],
		parameters,
		...extra,
	};
	if (credentials) n.credentials = credentials;
	return n;
}

/** The package's action node (its only version, 1) for `resource`: `parameters` hold the operation and its fields. */
const action = ({ resource, parameters = {}, ...spec }) => node({ ...spec, type: ACTION_TYPE, typeVersion: 1, parameters: { resource, ...parameters } });

/** The package's trigger (its only version, 2) for `source` with `parameters`. */
const trigger = ({ source, parameters = {}, ...spec }) => node({ webhookId: crypto.randomUUID(), ...spec, type: TRIGGER_TYPE, typeVersion: 2, parameters: { source, ...parameters } });

const manualTrigger = (name = 'Manual Trigger') => node({ name, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 });

const noOp = (name = 'No Operation') => node({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1 });

/**
 * A Webhook trigger (typeVersion 2) answering with the last node's output once the workflow is
 * active: POST <server>/webhook/<path>.
 */
function webhookTrigger(name, webhookPath, { httpMethod = 'POST', responseMode = 'lastNode' } = {}) {
	return node({
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod, path: webhookPath, responseMode, options: {} },
	});
}

/**
 * A workflow whose nodes run one after another in the given order (first node = trigger).
 * @param {string} name
 * @param {object[]} nodes
 * @param {{ id?: string, settings?: object }} [opts]
 */
function chain(name, nodes, { id, settings } = {}) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	nodes.forEach((n, i) => {
		if (!n.position || n.position[1] === 300) n.position = [i * 220, 300];
	});
	return {
		id: id ?? newId('wf'),
		name,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1', ...settings },
		pinData: {},
	};
}

/** Manual Trigger "Start" -> one item per ref ("Refs", a Set of raw JSON, + "One per Ref", a Split Out) -> every tested node. */
function perRefWorkflow(id, refs, tested) {
	const workflow = chain(
		`e2e: ${id}`,
		[
			manualTrigger('Start'),
			node({ name: 'Refs', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'raw', jsonOutput: JSON.stringify({ refs }), options: {} } }),
			node({ name: 'One per Ref', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'refs', options: {} } }),
		],
		{ id },
	);
	workflow.nodes.push(...tested);
	workflow.connections['One per Ref'] = { main: [tested.map((n) => ({ node: n.name, type: 'main', index: 0 }))] };
	return workflow;
}

/** A copy of an agent example with another question in its "Request" node (and the changes `edit` makes). */
function exampleVariant(example, id, question, edit = () => {}) {
	const workflow = structuredClone(example);
	Object.assign(workflow, { id, name: `e2e: ${question}` });
	workflow.nodes.find((n) => n.name === 'Request').parameters.assignments.assignments[0].value = question;
	edit(workflow);
	return workflow;
}

/** A file of examples/ (a workflow, or the credentials), parsed. */
const readExample = (file) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', file), 'utf8'));
/** The credentials of examples/credentials.sandbox.json; the first is the API credential the examples use. */
const EXAMPLE_CREDENTIALS = readExample('credentials.sandbox.json');
/** The examples' API credential and the reference a node stores to it. */
const SANDBOX_CREDENTIAL = EXAMPLE_CREDENTIALS[0];
const SANDBOX_CREDENTIAL_REF = { verificationServicesApi: { id: SANDBOX_CREDENTIAL.id, name: SANDBOX_CREDENTIAL.name } };
/** The examples' API credential pointed at the emulator at `baseUrl`. */
/** Challenge Deposit parameters that pass every rule: the base of the payments, request-path, edges and resend tests. */
const VALID_DEPOSIT = Object.freeze({
	operation: 'challengeDeposit',
	amount: '0.01',
	currency: 'EUR',
	description: 'order-4711',
	firstName: 'Anna',
	lastName: 'Schmidt',
	piiToggle: true,
	nameMatchLogic: 'exact',
});

const sandboxCredential = (baseUrl) => ({ ...SANDBOX_CREDENTIAL, data: { ...SANDBOX_CREDENTIAL.data, sandboxBaseUrl: baseUrl } });

module.exports = { ACTION_TYPE, TRIGGER_TYPE, node, action, trigger, manualTrigger, noOp, webhookTrigger, chain, perRefWorkflow, exampleVariant, readExample, EXAMPLE_CREDENTIALS, SANDBOX_CREDENTIAL, SANDBOX_CREDENTIAL_REF, sandboxCredential, VALID_DEPOSIT };

'use strict';
// The benchmark's workflows: Manual Trigger -> Set (one item holding N names) -> Split Out (N items
// {name}) -> the node under test. Built in code so N, the base URL and the credential are exact.

const { NAME_EXPRESSION } = require('./names');

const CREDENTIAL_TYPE = 'verificationServicesApi';
const AML_TYPE = 'n8n-nodes-verification-services.verificationAml';
const NODE_UNDER_TEST = 'Node Under Test';

let counter = 0;
function node(name, type, typeVersion, parameters, extra = {}) {
	counter++;
	return { id: `bench-node-${counter}`, name, type, typeVersion, position: [counter * 220, 300], parameters, ...extra };
}

function chain(id, name, nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	nodes.forEach((n, i) => {
		n.position = [i * 220, 300];
	});
	return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

function head(count) {
	return [
		node('Manual Trigger', 'n8n-nodes-base.manualTrigger', 1, {}),
		node('Names', 'n8n-nodes-base.set', 3.4, {
			mode: 'manual',
			assignments: { assignments: [{ id: 'names', name: 'names', value: NAME_EXPRESSION(count), type: 'array' }] },
			includeOtherFields: false,
			options: {},
		}),
		node('Split Out', 'n8n-nodes-base.splitOut', 1, {
			fieldToSplitOut: 'names',
			include: 'noOtherFields',
			options: { destinationFieldName: 'name' },
		}),
	];
}

const credentialRef = (credential) => ({ [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } });

/** (a) this package's AML node, checkIndividual, default options unless `options` says otherwise. */
function amlWorkflow({ id, name, count, credential, options = {} }) {
	const aml = node(
		NODE_UNDER_TEST,
		AML_TYPE,
		1,
		{ operation: 'checkIndividual', name: '={{ $json.name }}', options },
		{ credentials: credentialRef(credential) },
	);
	return chain(id, name, [...head(count), aml]);
}

/**
 * (b) n8n's HTTP Request node doing the same calls with the same credential (n8n runs its
 * preAuthentication and authenticate), Retry On Fail on; batching as given ({batchSize, batchInterval}
 * or null for none).
 */
function httpWorkflow({ id, name, count, credential, baseUrl, batching }) {
	const auth = { authentication: 'predefinedCredentialType', nodeCredentialType: CREDENTIAL_TYPE };
	const options = batching ? { batching: { batch: { batchSize: batching.batchSize, batchInterval: batching.batchInterval } } } : {};
	return chain(id, name, [...head(count), amlPost(baseUrl, auth, options, { credentials: credentialRef(credential) })]);
}

/** n8n's HTTP Request node posting each item's name to the AML route, Retry On Fail on (5 tries, 1 s apart). */
function amlPost(baseUrl, auth, options, extra = {}) {
	const parameters = {
		method: 'POST',
		url: `${baseUrl}/aml/checkIndividual`,
		...auth,
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: { parameters: [{ name: 'name', value: '={{ $json.name }}' }] },
		options,
	};
	return node(NODE_UNDER_TEST, 'n8n-nodes-base.httpRequest', 4.2, parameters, { ...extra, retryOnFail: true, maxTries: 5, waitBetweenTries: 1000 });
}

/**
 * (c) n8n's HTTP Request node as a user without this package's credential builds it: an HTTP Request
 * node fetches a token from /auth once, and the checking node sends it with a bearer-token expression
 * (no credential, so n8n evaluates its parameters and sends each item's request at once: it reaches
 * far more requests in flight than with a credential). Retry On Fail on, no batching.
 */
function httpBearerWorkflow({ id, name, count, baseUrl, apiKey, customerId }) {
	const token = node('Get Token', 'n8n-nodes-base.httpRequest', 4.2, {
		method: 'POST',
		url: `${baseUrl}/auth`,
		sendHeaders: true,
		headerParameters: { parameters: [{ name: 'Api-Key', value: apiKey }, { name: 'Customer-Id', value: customerId }] },
		options: {},
	});
	const bearer = { sendHeaders: true, headerParameters: { parameters: [{ name: 'Authorization', value: "=Bearer {{ $('Get Token').first().json.access_token }}" }] } };
	const http = amlPost(baseUrl, bearer, {});
	const [trigger, ...rest] = head(count);
	return chain(id, name, [trigger, token, ...rest, http]);
}

/** Baseline for memory: the same items through a No Operation node (what n8n itself needs). */
function noOpWorkflow({ id, name, count }) {
	return chain(id, name, [...head(count), node(NODE_UNDER_TEST, 'n8n-nodes-base.noOp', 1, {})]);
}

/**
 * Baseline for memory: n8n making an output of the AML node's shape for every item (a Set node with
 * fixed values, no expression: a new object per item), without any request.
 */
function sameOutputWorkflow({ id, name, count }) {
	const summary = { shape: 'list', isHit: false, totalHits: 0, hitsBySourceType: { SANCTION: 0, PEP: 0, CRIMINAL: 0 } };
	const fields = [
		['timestamp', 'string', '2026-11-23T12:00:00.000Z'],
		['totalHits', 'number', 0],
		['foundRecords', 'array', '[]'],
		['screeningSummary', 'object', JSON.stringify(summary)],
	];
	const assignments = fields.map(([field, type, value]) => ({ id: field, name: field, type, value }));
	return chain(id, name, [...head(count), node(NODE_UNDER_TEST, 'n8n-nodes-base.set', 3.4, { mode: 'manual', assignments: { assignments }, includeOtherFields: false, options: {} })]);
}

const ADDRESS_TYPE = 'n8n-nodes-verification-services.verificationAddress';

/**
 * (d) Address Verification at version 2, Verify Address for every name (its answer has 21 fields),
 * with Simplify on (the default, 8 fields kept) or off (the whole answer): what Simplify saves.
 */
function addressWorkflow({ id, name, count, credential, options = {} }) {
	const parameters = { operation: 'verify', country: 'DE', street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', firstname: 'Erika', lastname: '={{ $json.name }}', simple: options.simple !== false };
	const address = node(NODE_UNDER_TEST, ADDRESS_TYPE, 2, parameters, { credentials: credentialRef(credential) });
	return chain(id, name, [...head(count), address]);
}

/** The whole answer Verify Address outputs for a German address (emulator, older generation), field by field. */
const ADDRESS_ANSWER = {
	inputAddress: 'Heidestraße 17, 51147 Köln, DE',
	correctedAddress: 'Heidestraße 17, 51147 Köln, DE',
	finalAddress: 'Heidestraße 17, 51147 Köln, DE',
	addressStatus: 'verified',
	addressComponents: { street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', province: '', country: 'DE' },
	matchQuality: 'EXACT',
	score: 100,
	globalResult: { overall: 'OK', totalScore: 100 },
	identity: { fullName: 'Erika Bench Person 00000', dob: '' },
	extendedMessage: 'addressFound',
	addressVerification: { outcome: 'verified', overall: 'OK', matchQuality: 'EXACT', score: 100 },
};

/** Baseline for memory: n8n making Verify Address's whole output for every item with a Set node, no request. */
function sameAddressOutputWorkflow({ id, name, count }) {
	const assignments = Object.entries(ADDRESS_ANSWER).map(([field, value]) => ({
		id: field,
		name: field,
		type: typeof value === 'object' ? 'object' : typeof value,
		value: typeof value === 'object' ? JSON.stringify(value) : value,
	}));
	return chain(id, name, [...head(count), node(NODE_UNDER_TEST, 'n8n-nodes-base.set', 3.4, { mode: 'manual', assignments: { assignments }, includeOtherFields: false, options: {} })]);
}

module.exports = { amlWorkflow, httpWorkflow, httpBearerWorkflow, noOpWorkflow, sameOutputWorkflow, addressWorkflow, sameAddressOutputWorkflow, NODE_UNDER_TEST, CREDENTIAL_TYPE };

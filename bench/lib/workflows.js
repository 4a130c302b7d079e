'use strict';
// The benchmark's workflows: Manual Trigger -> Set (one item holding N names) -> Split Out (N items
// {name}) -> the node under test. Built in code so N, the base URL and the credential are exact.

const { NAME_EXPRESSION } = require('./names');
const { node, action, chain, manualTrigger, noOp } = require('../../test/e2e/lib/workflows');

const CREDENTIAL_TYPE = 'verificationServicesApi';
const NODE_UNDER_TEST = 'Node Under Test';

/** A Set node (version 3.4) whose output holds only the fields given. */
const setNode = (name, assignments) =>
	node({ name, type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'manual', assignments: { assignments }, includeOtherFields: false, options: {} } });

/** Set (one item holding the array `expression` makes) -> Split Out (one item {name} per element). */
function namesToItems(expression) {
	return [
		setNode('Names', [{ id: 'names', name: 'names', value: expression, type: 'array' }]),
		node({ name: 'Split Out', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'names', include: 'noOtherFields', options: { destinationFieldName: 'name' } } }),
	];
}

const head = (count, hitEvery) => [manualTrigger(), ...namesToItems(NAME_EXPRESSION(count, hitEvery))];

const credentialRef = (credential) => ({ [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } });

/** (a) this package's node, AML Check Individual, default options unless `options` says otherwise. */
function amlWorkflow({ id, name, count, credential, options = {}, hitEvery }) {
	const parameters = { operation: 'checkIndividual', name: '={{ $json.name }}', options };
	return chain(name, [...head(count, hitEvery), action({ name: NODE_UNDER_TEST, resource: 'aml', parameters, credentials: credentialRef(credential) })], { id });
}

/**
 * (b) n8n's HTTP Request node doing the same calls with the same credential (n8n runs its
 * preAuthentication and authenticate), Retry On Fail on; batching as given ({batchSize, batchInterval}
 * or null for none).
 */
function httpWorkflow({ id, name, count, credential, baseUrl, batching }) {
	const auth = { authentication: 'predefinedCredentialType', nodeCredentialType: CREDENTIAL_TYPE };
	const options = batching ? { batching: { batch: { batchSize: batching.batchSize, batchInterval: batching.batchInterval } } } : {};
	return chain(name, [...head(count), amlPost(baseUrl, auth, options, { credentials: credentialRef(credential) })], { id });
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
	return node({ name: NODE_UNDER_TEST, type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, parameters, ...extra, retryOnFail: true, maxTries: 5, waitBetweenTries: 1000 });
}

/**
 * (c) n8n's HTTP Request node as a user without this package's credential builds it: an HTTP Request
 * node fetches a token from /auth once, and the checking node sends it with a bearer-token expression
 * (no credential, so n8n evaluates its parameters and sends each item's request at once: it reaches
 * far more requests in flight than with a credential). Retry On Fail on, no batching.
 */
function httpBearerWorkflow({ id, name, count, baseUrl, apiKey, customerId }) {
	const headers = [{ name: 'Api-Key', value: apiKey }, { name: 'Customer-Id', value: customerId }];
	const parameters = { method: 'POST', url: `${baseUrl}/auth`, sendHeaders: true, headerParameters: { parameters: headers }, options: {} };
	const token = node({ name: 'Get Token', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, parameters });
	const bearer = { sendHeaders: true, headerParameters: { parameters: [{ name: 'Authorization', value: "=Bearer {{ $('Get Token').first().json.access_token }}" }] } };
	const [trigger, ...rest] = head(count);
	return chain(name, [trigger, token, ...rest, amlPost(baseUrl, bearer, {})], { id });
}

/** Baseline for memory: the same items through a No Operation node (what n8n itself needs). */
function noOpWorkflow({ id, name, count }) {
	return chain(name, [...head(count), noOp(NODE_UNDER_TEST)], { id });
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
	return chain(name, [...head(count), setNode(NODE_UNDER_TEST, assignments)], { id });
}

/**
 * (d) this package's node, Address Verify Address, for every name (its answer has 21 fields),
 * with Simplify on (the default, 8 fields kept) or off (the whole answer): what Simplify saves.
 */
function addressWorkflow({ id, name, count, credential, options = {} }) {
	const parameters = { operation: 'verify', country: 'DE', street: 'Heidestraße', number: '17', zip: '51147', city: 'Köln', firstname: 'Erika', lastname: '={{ $json.name }}', simple: options.simple !== false };
	const address = action({ name: NODE_UNDER_TEST, resource: 'address', parameters, credentials: credentialRef(credential) });
	return chain(name, [...head(count), address], { id });
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
	return chain(name, [...head(count), setNode(NODE_UNDER_TEST, assignments)], { id });
}

module.exports = { amlWorkflow, httpWorkflow, httpBearerWorkflow, noOpWorkflow, sameOutputWorkflow, addressWorkflow, sameAddressOutputWorkflow, namesToItems, NODE_UNDER_TEST, CREDENTIAL_TYPE };

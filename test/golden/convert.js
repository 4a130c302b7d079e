'use strict';
// Converts a workflow saved with the per-group nodes of the package's development (never released) to
// the one action node and the one trigger, mechanically: node type, resource or source, version, and
// the parameters whose default the old node version had otherwise. Node names, ids, credentials,
// connections and every other parameter stay as they were, so a converted workflow must send the same
// requests and give the same output (test/e2e/golden.e2e.test.js compares them with the expectations
// recorded from the originals).
//
//   node test/golden/convert.js FILE...      converts the files in place

const fs = require('node:fs');

const PACKAGE = 'n8n-nodes-verification-services';

/** The old action nodes by type name: their resource. */
const RESOURCE_OF = {
	verificationAml: 'aml',
	verificationKyb: 'kyb',
	verificationPayments: 'payments',
	verificationDocument: 'document',
	verificationPhone: 'phone',
	verificationQes: 'qes',
	verificationAddress: 'address',
	verificationIdentity: 'identity',
};

/** The old triggers by type name: their source. */
const SOURCE_OF = { verificationQesTrigger: 'qesStatus', verificationWebhookTrigger: 'signedResult' };

/** The operations that had Simplify from version 2 on (version 1 output the whole answer). */
const SIMPLIFIED = {
	address: ['verify'],
	document: ['verifyDocument'],
	kyb: ['search', 'getDetails', 'listCompanyProfiles'],
	payments: ['challengeDeposit'],
	phone: ['getPhoneStatus', 'getPhoneId', 'getRiskScore', 'getFullIntelligence'],
	qes: ['getVerification'],
};

/** The actions and the old node version from which, as AI tools, they waited for a person's approval. */
const REVIEWED_FROM = {
	aml: { registerIndividual: 2, removeSearchProfile: 2 },
	document: { startHostedJourney: 2 },
	payments: { challengeDeposit: 2, initiatePayment: 2 },
	phone: { sendOtp: 3 },
	qes: { configureWebhook: 2, createSessionLink: 2 },
};

/** Each old node's first operation: what a saved node without `operation` ran. */
const FIRST_OPERATION = {
	aml: 'checkIndividual',
	kyb: 'search',
	payments: 'challengeDeposit',
	document: 'openJourney',
	phone: 'sendOtp',
	qes: 'getVerification',
	address: 'verify',
	identity: 'verify',
};

function convertActionNode(node, name, tool) {
	const resource = RESOURCE_OF[name];
	const version = node.typeVersion ?? 1;
	const parameters = { resource, ...node.parameters };
	const operation = parameters.operation ?? FIRST_OPERATION[resource];
	if (version < 2 && SIMPLIFIED[resource]?.includes(operation) && !('simple' in parameters)) {
		parameters.simple = false;
	}
	const reviewedFrom = REVIEWED_FROM[resource]?.[operation];
	if (tool && reviewedFrom && version < reviewedFrom && !('runWithoutHumanReview' in parameters)) {
		parameters.runWithoutHumanReview = true;
	}
	return {
		...node,
		type: `${PACKAGE}.verificationServices${tool ? 'Tool' : ''}`,
		typeVersion: 1,
		parameters,
	};
}

function convertTrigger(node, name) {
	const source = SOURCE_OF[name];
	// The QES trigger's one-value "Trigger On" is the trigger's source now; the Webhook Trigger's
	// version-1 hidden Body Handling is n8n's own parsing in version 2.
	const { event: _event, ...rest } = node.parameters ?? {};
	if (source === 'signedResult') delete rest.options;
	return {
		...node,
		type: `${PACKAGE}.verificationServicesTrigger`,
		typeVersion: 2,
		parameters: { source, ...rest },
	};
}

/** The node in the new shape; any other node as it is. */
function convertNode(node) {
	if (!node.type?.startsWith(`${PACKAGE}.`)) return node;
	const typeName = node.type.slice(PACKAGE.length + 1);
	const tool = typeName.endsWith('Tool');
	const name = tool ? typeName.slice(0, -'Tool'.length) : typeName;
	if (RESOURCE_OF[name]) return convertActionNode(node, name, tool);
	if (SOURCE_OF[name]) return convertTrigger(node, name);
	return node;
}

function convertWorkflow(workflow) {
	if (!Array.isArray(workflow.nodes)) return workflow;
	return { ...workflow, nodes: workflow.nodes.map(convertNode) };
}

module.exports = { convertWorkflow, convertNode };

if (require.main === module) {
	for (const file of process.argv.slice(2)) {
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8'));
		const indent = /^\{\n(\t| +)/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '\t';
		fs.writeFileSync(file, `${JSON.stringify(convertWorkflow(workflow), null, indent)}\n`);
	}
}

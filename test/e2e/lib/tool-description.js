'use strict';
// The description n8n gives a model (AI Agent, MCP client) for one operation of the built action node,
// read from dist/ as the node's Tool Description field defaults to it.

const path = require('node:path');

const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'nodes');

/** toolDescriptionOf the operation `operation` of resource `resource` ('aml', 'checkIndividual'). */
function toolDescription(resource, operation) {
	const { toolDescriptionOf } = require(path.join(DIST, 'shared', 'operation', 'tool-output.js'));
	const { [`${resource}Resource`]: definition } = require(path.join(DIST, 'VerificationServices', resource, 'operations', 'index.js'));
	const op = definition.operations.find((o) => o.value === operation);
	if (!op) throw new Error(`no operation ${resource}/${operation} in dist/`);
	return toolDescriptionOf(op);
}

module.exports = { toolDescription };

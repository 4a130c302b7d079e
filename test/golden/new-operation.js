#!/usr/bin/env node
'use strict';
// Writes the golden workflow of a new operation from the operation's own example values, then records
// what it does (record.js): a Manual Trigger and the node, with every required field set to its
// default, or to its placeholder where the default is empty or an expression (a Manual Trigger's item
// has no values to read). Read the recorded expectation before committing both; when the emulator needs
// other values, edit the new workflow and record again (delete the expectation first).
//
//   npm run build && node test/golden/new-operation.js kyb listCountries [--no-record]

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { exampleParameters, nodeDescriptions } = require('../e2e/lib/package-nodes');
const { PACKAGE, loadFixtures } = require('./golden');

const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
const SANDBOX = { id: 'verification-sandbox', name: 'Verification Services (sandbox emulator)' };

const kebab = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

function newFixture(resource, operation) {
	const description = nodeDescriptions().find((d) => d.name === 'verificationServices');
	if (!description) throw new Error('no built action node (npm run build first?)');
	const picker = description.properties.find((p) => p.name === 'operation' && p.displayOptions.show.resource.includes(resource));
	const option = picker?.options?.find((o) => o.value === operation);
	if (!option) throw new Error(`resource ${resource} declares no operation ${operation}`);
	const fixtures = loadFixtures();
	const name = `${kebab(resource)}-${kebab(operation)}`;
	if (fixtures.some((f) => f.name === name)) throw new Error(`test/golden/workflows/${name}.json exists already`);
	const number = 1 + Math.max(...fixtures.map((f) => Number(/^golden(\d+)$/.exec(f.workflow.id)?.[1] ?? 0)));
	const id = `golden${String(number).padStart(10, '0')}`;
	const version = Math.max(...[description.version].flat());
	const workflow = {
		id,
		name: `golden: ${description.displayName}: ${option.name}`,
		nodes: [
			{ id: `${id}-n0`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: `${id}-n1`, name: option.name, type: `${PACKAGE}.${description.name}`, typeVersion: version, position: [220, 0], parameters: exampleParameters(description, resource, operation), credentials: { verificationServicesApi: SANDBOX } },
		],
		connections: { Start: { main: [[{ node: option.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
	fs.writeFileSync(path.join(WORKFLOWS_DIR, `${name}.json`), `${JSON.stringify(workflow, null, '\t')}\n`);
	return { name, parameters: workflow.nodes[1].parameters };
}

function main() {
	const [resource, operation] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
	if (!resource || !operation) throw new Error('usage: node test/golden/new-operation.js <resource, e.g. kyb> <operation value> [--no-record]');
	const { name, parameters } = newFixture(resource, operation);
	process.stderr.write(`[golden] wrote test/golden/workflows/${name}.json with ${JSON.stringify(parameters)}\n`);
	if (process.argv.includes('--no-record')) return;
	const recorded = spawnSync(process.execPath, [path.join(__dirname, 'record.js'), name], { stdio: 'inherit' });
	process.exitCode = recorded.status ?? 1;
}

try {
	main();
} catch (error) {
	process.stderr.write(`${error.message}\n`);
	process.exitCode = 1;
}

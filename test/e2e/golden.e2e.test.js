'use strict';
// Saved workflows survive updates: the golden workflows (test/golden/workflows/, saved with a release
// and never edited) run unchanged in real n8n against the sandbox emulator, and must still send the
// same requests and give the same output as recorded (test/golden/expected/). A renamed parameter or
// option value, a changed default or a changed output fails here; such a change belongs in a new node
// version (CONTRIBUTING.md). How a run is compared: test/golden/golden.js.

const { describe, it, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');

const { declaredOperations, nodeDescriptions } = require('./lib/package-nodes');
const { defaultLog, e2eVersions } = require('./lib/util');
const { EXPECTED_DIR, PACKAGE, differences, expectationFor, loadExpected, loadFixtures, operationsOf, runGolden, staleParameters } = require('../golden/golden');

const VERSIONS = e2eVersions();
const log = (message) => defaultLog(`[golden] ${message}`);

const fixtures = loadFixtures();

describe('the golden workflows as a set', () => {
	it('each has its recorded expectation, and each expectation its workflow', () => {
		const names = fixtures.map((f) => f.name);
		const recorded = fs.readdirSync(EXPECTED_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
		assert.deepEqual(names.filter((n) => !recorded.includes(n)), [], 'fixtures without expectations: record them with node test/golden/record.js');
		assert.deepEqual(recorded.filter((n) => !names.includes(n)), [], 'expectations without a fixture');
	});

	it('run every operation of the action node, and every source of the trigger', () => {
		const used = new Set(fixtures.flatMap((f) => operationsOf(f.workflow)));
		assert.deepEqual(declaredOperations().filter((op) => !used.has(op)), [], 'operations or sources no golden workflow runs: node test/golden/new-operation.js <resource> <operation>');
		assert.deepEqual(nodeDescriptions().map((d) => d.group.includes('trigger')), [false, true], 'one action node and one trigger');
	});

	it('name only parameters, fields and option values the built nodes still declare', () => {
		const stale = fixtures.flatMap((f) => staleParameters(f.workflow).map((line) => `${f.name}: ${line}`));
		assert.deepEqual(stale, [], 'a saved workflow names what the nodes no longer declare (a rename?)');
	});

	it('name only node versions the built nodes still declare', () => {
		const versions = new Map(nodeDescriptions().map((d) => [`${PACKAGE}.${d.name}`, [d.version].flat()]));
		const stale = fixtures.flatMap((f) =>
			f.workflow.nodes.filter((n) => versions.has(n.type) && !versions.get(n.type).includes(n.typeVersion)).map((n) => `${f.name}: ${n.name} (${n.type} v${n.typeVersion})`),
		);
		assert.deepEqual(stale, [], 'a node version a saved workflow uses was removed');
	});
});

for (const version of VERSIONS) {
	describe(`n8n ${version}: golden workflows give what they gave when saved`, () => {
		let outcome;

		before(
			async () => {
				outcome = await runGolden(version, { log, fixtures });
			},
			{ timeout: 30 * 60 * 1000 },
		);

		for (const { name, workflow } of fixtures) {
			it(`${name}: ${workflow.name.replace(/^golden: /, '')}`, () => {
				const result = outcome.get(name);
				assert.ok(result.ok, `the saved workflow failed: ${result.error}`);
				const expected = loadExpected(name);
				assert.ok(expected, `no expectation recorded for ${name} (node test/golden/record.js)`);
				const found = differences(expectationFor(expected, version), result.actual);
				assert.deepEqual(found, [], `${name} no longer does what it did when saved:\n  ${found.join('\n  ')}`);
			});
		}
	});
}

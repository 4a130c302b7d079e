#!/usr/bin/env node
'use strict';
// Records what a new golden workflow does, in both n8n versions, into test/golden/expected/<name>.json.
// Only fixtures without expectations are written: a recorded expectation is never rewritten, because
// a saved workflow whose requests or output change is what the golden suite exists to catch (a change
// like that belongs in a new node version, see CONTRIBUTING.md).
//
//   npm run build && node test/golden/record.js            # every fixture without expectations
//   node test/golden/record.js --check                     # prints the differences, writes nothing
//   node test/golden/record.js trigger-signed-result-v2          # only the fixtures named (file names without .json)

const fs = require('node:fs');
const { isDeepStrictEqual: sameAs } = require('node:util');

const { e2eVersions } = require('../e2e/lib/util');

const { EXPECTED_DIR, differences, expectedFile, loadExpected, loadFixtures, runGolden } = require('./golden');

const VERSIONS = e2eVersions();
const checkOnly = process.argv.includes('--check');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const log = (m) => process.stderr.write(`[golden] ${m}\n`);

async function main() {
	const fixtures = loadFixtures().filter((f) => only.length === 0 || only.includes(f.name));
	const unknown = only.filter((name) => !fixtures.some((f) => f.name === name));
	if (unknown.length) throw new Error(`no fixture named ${unknown.join(', ')} in test/golden/workflows`);
	const runs = {};
	for (const version of VERSIONS) runs[version] = await runGolden(version, { log, fixtures });
	const [first, ...others] = VERSIONS;
	let failed = false;
	fs.mkdirSync(EXPECTED_DIR, { recursive: true });
	for (const { name } of fixtures) {
		const results = VERSIONS.map((v) => runs[v].get(name));
		const broken = VERSIONS.filter((v, i) => !results[i].ok);
		if (broken.length) {
			failed = true;
			log(`${name}: failed in ${broken.join(', ')}: ${results.find((r) => !r.ok).error}`);
			continue;
		}
		const expected = { ...results[0].actual };
		const byVersion = {};
		for (const version of others) {
			const actual = runs[version].get(name).actual;
			if (!sameAs(actual, results[0].actual)) byVersion[version] = actual;
		}
		if (Object.keys(byVersion).length) {
			expected.byVersion = byVersion;
			log(`${name}: n8n ${others.filter((v) => byVersion[v]).join(', ')} differs from ${first}: recorded apart`);
		}
		if (checkOnly || loadExpected(name)) {
			if (loadExpected(name) && !sameAs(loadExpected(name), expected)) {
				log(`${name}: differs from its recorded expectation (not rewritten):\n  ${differences(loadExpected(name), expected).join('\n  ')}`);
			}
			continue;
		}
		fs.writeFileSync(expectedFile(name), `${JSON.stringify(expected, null, '\t')}\n`);
		log(`${name}: recorded`);
	}
	process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});

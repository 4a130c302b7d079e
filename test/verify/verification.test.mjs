// What n8n checks before it verifies a community package (see scripts/verify-package.mjs): the
// scanner's analysis of the packed tarball and of the sources, and @n8n/node-cli's cloud-support check.
// Needs dist/ (npm run build). The scanner's provenance step needs a published release: not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyPackage } from '../../scripts/verify-package.mjs';

const results = await verifyPackage();

for (const r of results) {
	test(r.check, () => {
		assert.ok(r.passed, `${r.check} failed:\n${r.details}`);
	});
}

test('runs every check', () => {
	assert.deepEqual(
		results.map((r) => r.check),
		['scan-community-package: tarball', 'scan-community-package: sources', 'n8n-node cloud-support: strict mode', 'n8n-node lint (default cloud config)'],
	);
});

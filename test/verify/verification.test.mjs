// What n8n checks before it verifies a community package (see scripts/verify-package.mjs): the
// scanner's analysis of the packed tarball and of the sources, and @n8n/node-cli's cloud-support check.
// Needs dist/ (npm run build). The scanner's provenance step needs a published release: not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS, runCheck } from '../../scripts/verify-package.mjs';

for (const check of CHECKS) {
	test(check.check, async () => {
		const result = await runCheck(check);
		assert.ok(result.passed, `${check.check} failed:\n${result.details}`);
	});
}

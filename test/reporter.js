'use strict';
// A node --test reporter for `npm test` (scripts/test.js): writes the counts, the skips and the failures
// (test and error) as JSON to TEST_RESULTS_FILE for the closing summary. It prints nothing; the spec
// reporter beside it writes the suite's log.

const fs = require('node:fs');

/** The assertion behind node:test's wrapper error, as a few lines. */
function errorText(error) {
	const cause = error?.cause ?? error;
	const text = cause instanceof Error || typeof cause?.message === 'string' ? `${cause.message}` : String(cause);
	return text.split('\n').slice(0, 12).join('\n');
}

module.exports = async function* reporter(source) {
	const counts = { passed: 0, failed: 0, skipped: 0 };
	const failures = [];
	const skips = [];
	const names = []; // the names of the running test's ancestors, by nesting
	for await (const { type, data } of source) {
		if (type === 'test:start') names[data.nesting] = data.name;
		if (type !== 'test:pass' && type !== 'test:fail') continue;
		const suite = data.details?.type === 'suite';
		const title = [...names.slice(0, data.nesting), data.name].join(' > ');
		if (data.skip !== undefined || data.todo !== undefined) {
			if (!suite) counts.skipped++;
			if (data.nesting === 0 || !skips.some((s) => s.reason === data.skip)) skips.push({ title, reason: String(data.skip ?? data.todo) });
		} else if (type === 'test:fail') {
			// A describe fails when a test inside does; name it only when its own hook failed.
			const own = !suite || data.details?.error?.failureType === 'hookFailed';
			if (own) failures.push({ title, error: errorText(data.details?.error) });
			if (!suite) counts.failed++;
		} else if (!suite) {
			counts.passed++;
		}
	}
	if (process.env.TEST_RESULTS_FILE) fs.writeFileSync(process.env.TEST_RESULTS_FILE, JSON.stringify({ counts, failures, skips }, null, 2));
	yield '';
};

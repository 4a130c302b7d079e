// Prints the plain closing line that CI reads ("unit: N passed, N failed"); jest's own summary has another shape.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`\nunit: ${results.numPassedTests} passed, ${results.numFailedTests} failed` +
				(skipped ? `, ${skipped} skipped` : '') +
				'\n',
		);
	}
}
module.exports = SummaryReporter;

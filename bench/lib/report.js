'use strict';
// Ratios, target verdicts and the two renderings (plain-text table for the terminal, markdown for
// bench/results.md).

const { median } = require('./stats');
const { fmtS, fmtX } = require('./table');

const GROUP_TITLES = {
	latency: (s) => `Latency-bound: ${s.latencyMs} ms per request, no rate limit, ${s.items} items`,
	rate: (s) => `Rate-limited: ${s.latencyMs} ms per request, ${s.rate} requests/s, ${s.items} items`,
	memory: (s) => `Memory: 0 ms latency, no rate limit, ${Math.round(s.memoryItems / 10)} vs ${s.memoryItems} items`,
};

const byKey = (results, key) => results.find((r) => r.key === key);

/** The reference times of a group: the fastest plain client at concurrency 5, and N / rate. */
function references(results, group) {
	const plain = results.filter((r) => r.group === group && r.kind === 'plain' && r.perRun.length && isReference(r));
	const plainMs = plain.length ? Math.min(...plain.map((r) => r.nodeMs)) : null;
	const limit = results.find((r) => r.group === group && r.kind === 'limit');
	return { plainMs, limitMs: limit ? limit.limitMs : null };
}

// Reference rows: the plain client at the nodes' concurrency (not the all-at-once one).
const isReference = (r) => r.key === 'L-plain-http' || r.key === 'L-plain-undici' || r.key === 'R-plain-paced';

function rowTime(r) {
	return r.kind === 'limit' ? r.limitMs : r.nodeMs;
}

function ratios(results, r) {
	const { plainMs, limitMs } = references(results, r.group);
	const t = rowTime(r);
	return {
		vsPlain: t !== null && plainMs ? t / plainMs : null,
		vsLimit: t !== null && limitMs ? t / limitMs : null,
	};
}

const mb = (kb) => (kb === null || kb === undefined ? null : kb / 1024);

/**
 * What the package measured before the automatic concurrency (main before issue 24), for the target
 * that says "no worse": the rate-limited ratio (`npm run bench`, quiet machine, 3 runs).
 */
const BEFORE = { rateLimitedVsLimit: 1.09 };

/**
 * The many-executions targets: every item in every run, the median time within `ratio` x N/rate, and
 * at most `most429` answered 429 in a run. A 429 costs one request sent again, not a pause: learning
 * an unknown quota of 20/s with two cold workers draws about 30 (the pacer that paused the process on
 * every 429 drew about 20 and took 1.26x in the queue row: bench/results.md).
 */
const MANY = {
	'ME-regular-20x10': { ratio: 1.2, most429: 20 },
	'ME-queue-20x10': { ratio: 1.2, most429: 40 },
};

/**
 * The first request of the runs in which both nodes exchanged the key for a token. Each run is a new
 * `n8n execute` process: the AML node keeps its token in the process, while n8n stores the HTTP
 * Request node's token with the credential in the database, so from its second run on that node sends
 * without an exchange (one round trip to /auth less).
 */
function withExchange(aml, http) {
	const exchanged = (r) => r.perRun.filter((run) => run.authCalls > 0 && run.firstRequestMs !== null).map((run) => run.firstRequestMs);
	const [a, h] = [exchanged(aml), exchanged(http)];
	if (!a.length || !h.length || h.length === http.perRun.length) return '';
	const [ma, mh] = [median(a), median(h)];
	return `in the runs where both exchanged the key for a token first: ${fmtS(ma)} vs ${fmtS(mh)} (${fmtX(ma / mh)}); `;
}

/** The issue-24 targets: fast by default against n8n's HTTP Request node, without losing any promise. */
function evaluateTargets(results, settings, manyRows = []) {
	const targets = [];
	const add = (name, pass, measured, note) => targets.push({ name, pass, measured, note });
	const ratio = (a, b) => (a !== null && b ? a / b : null);

	const lAml = byKey(results, 'L-aml');
	if (lAml && lAml.perRun.length) {
		const versus = [
			['L-http-nobatch', 'HTTP Request with this credential', 0.8],
			['L-http-bearer', 'HTTP Request with all items in flight (an /auth node and a bearer expression)', 1.0],
			['L-plain-peak', `a plain client at the AML node's own peak concurrency (${lAml.maxConcurrent})`, 1.15],
		];
		for (const [key, what, limit] of versus) {
			const other = byKey(results, key);
			if (!other || other.nodeMs === null) continue;
			const x = ratio(lAml.nodeMs, other.nodeMs);
			add(
				`Latency-bound: AML node, default settings, <= ${limit.toFixed(2)}x ${what}`,
				x !== null && x <= limit,
				`${fmtS(lAml.nodeMs)} vs ${fmtS(other.nodeMs)} (${fmtX(x)}; peak concurrency ${lAml.maxConcurrent} vs ${other.maxConcurrent})`,
			);
		}
		const http = byKey(results, 'L-http-nobatch');
		if (http && http.firstRequestMs !== null && lAml.firstRequestMs !== null) {
			const x = ratio(lAml.firstRequestMs, http.firstRequestMs);
			add(
				`First request after the node starts, ${settings.items} items: AML node <= 2x the HTTP Request node's`,
				x !== null && x <= 2,
				`${fmtS(lAml.firstRequestMs)} vs ${fmtS(http.firstRequestMs)} (${fmtX(x)})`,
				`${withExchange(lAml, http)}the AML node checks every item before it sends the first request; the HTTP Request node sends each item as soon as it has evaluated it`,
			);
		}
	}
	const rAml = byKey(results, 'R-aml');
	if (rAml && rAml.perRun.length) {
		const n = settings.items;
		add(
			`Rate-limited: ${n} of ${n} items succeed with default settings, none lost or sent twice`,
			rAml.succeeded === n && rAml.duplicated === 0 && rAml.lost === 0,
			`worst run: ${rAml.succeeded} succeeded, ${rAml.lost} lost, ${rAml.duplicated} duplicated (${rAml.runs} runs)`,
		);
		const { vsLimit } = ratios(results, rAml);
		add(
			`Rate-limited: AML node time no worse than before (${fmtX(BEFORE.rateLimitedVsLimit)} N / rate)`,
			vsLimit !== null && vsLimit <= BEFORE.rateLimitedVsLimit,
			`${fmtS(rAml.nodeMs)} = ${fmtX(vsLimit)} of ${fmtS(references(results, 'rate').limitMs)}; 429s per run ${rAml.status429Runs.join(', ')}`,
		);
	}
	for (const row of manyRows.filter((r) => MANY[r.key] !== undefined)) {
		const target = MANY[row.key];
		const runs = row.perRun;
		const most429 = Math.max(...runs.map((r) => r.status429));
		const runRatios = runs.map((r) => r.ratio);
		const complete = runs.every((r) => r.succeeded === row.count && r.lost === 0 && r.failedCalls === 0 && !r.unanswered);
		add(
			`Many executions ${row.key}: ${row.count}/${row.count} in every run, median within ${fmtX(target.ratio)} N/rate, at most ${target.most429} x 429 in a run`,
			complete && median(runRatios) <= target.ratio && most429 <= target.most429,
			`succeeded ${runs.map((r) => r.succeeded).join(', ')}; 429s ${runs.map((r) => r.status429).join(', ')}; x N/rate ${runRatios.map((x) => x.toFixed(2)).join(', ')}`,
		);
	}
	for (const key of ['L-aml', 'R-aml']) {
		const r = byKey(results, key);
		if (!r || !r.perRun.length) continue;
		// Each run is one `n8n execute` process, and a process exchanges the key once per token lifetime.
		add(`/auth: 1 call per run of 1,000 items (${key})`, r.authCalls.every((n) => n === 1), `${r.authCalls.join(', ')} call(s)`);
	}
	const small = byKey(results, 'M-aml-small');
	const large = byKey(results, 'M-aml-large');
	const noopSmall = byKey(results, 'M-noop-small');
	const noopLarge = byKey(results, 'M-noop-large');
	if (small && large && small.peakRssKb && large.peakRssKb) {
		const growth = mb(large.peakRssKb - small.peakRssKb);
		const perItemKb = (large.peakRssKb - small.peakRssKb) / (large.count - small.count);
		let baseline = '';
		if (noopSmall && noopLarge && noopSmall.peakRssKb && noopLarge.peakRssKb) {
			const n8nGrowth = mb(noopLarge.peakRssKb - noopSmall.peakRssKb);
			baseline = `; n8n itself (No Operation node) grows ${n8nGrowth.toFixed(0)} MB for the same items, so the AML node's own share is ${(growth - n8nGrowth).toFixed(0)} MB`;
		}
		const sameSmall = byKey(results, 'M-same-small');
		const sameLarge = byKey(results, 'M-same-large');
		if (sameSmall?.peakRssKb && sameLarge?.peakRssKb) {
			const outputGrowth = mb(sameLarge.peakRssKb - sameSmall.peakRssKb);
			baseline += `; n8n making the same output with a Set node, no request, grows ${outputGrowth.toFixed(0)} MB, so the AML node's share beyond its output is ${(growth - outputGrowth).toFixed(0)} MB`;
		}
		const httpSmall = byKey(results, 'M-http-small');
		const httpLarge = byKey(results, 'M-http-large');
		const http =
			httpSmall?.peakRssKb && httpLarge?.peakRssKb
				? `; n8n's HTTP Request node, same requests through the same HTTP client: +${mb(httpLarge.peakRssKb - httpSmall.peakRssKb).toFixed(0)} MB`
				: '';
		add(
			`Memory: peak RSS of ${large.count} items at most 120 MB above ${small.count} items`,
			growth <= 120,
			`${mb(small.peakRssKb).toFixed(0)} MB -> ${mb(large.peakRssKb).toFixed(0)} MB (+${growth.toFixed(0)} MB, ${perItemKb.toFixed(1)} kB per extra item)${baseline}${http}`,
		);
	}
	const [reviewOff, reviewOn] = ['M-review-off', 'M-review-on'].map((key) => byKey(results, key));
	if (reviewOff?.nodeMs && reviewOn?.nodeMs) {
		const rss = (r) => median(r.perRun.map((run) => run.peakRssKb));
		const [time, memory] = [reviewOn.nodeMs / reviewOff.nodeMs, rss(reviewOn) / rss(reviewOff)];
		add(
			`Evidence and review: ${reviewOn.count} customers with fingerprints, Decided Records and evidence within 5 % of without (time and peak RSS, medians)`,
			time <= 1.05 && memory <= 1.05 && reviewOn.lost === 0,
			`time ${fmtS(reviewOff.nodeMs)} -> ${fmtS(reviewOn.nodeMs)} (${fmtX(time)}); peak RSS ${mb(rss(reviewOff)).toFixed(0)} MB -> ${mb(rss(reviewOn)).toFixed(0)} MB (${fmtX(memory)})`,
		);
	}
	const addr = (key) => byKey(results, key)?.peakRssKb;
	const [rawSmall, rawLarge, simpleSmall, simpleLarge] = ['M-addr-raw-small', 'M-addr-raw-large', 'M-addr-simple-small', 'M-addr-simple-large'].map(addr);
	if (rawSmall && rawLarge && simpleSmall && simpleLarge) {
		const raw = mb(rawLarge - rawSmall);
		const simple = mb(simpleLarge - simpleSmall);
		const noopGrowth = noopSmall?.peakRssKb && noopLarge?.peakRssKb ? mb(noopLarge.peakRssKb - noopSmall.peakRssKb) : undefined;
		const sameGrowth = addr('M-addr-same-small') && addr('M-addr-same-large') ? mb(addr('M-addr-same-large') - addr('M-addr-same-small')) : undefined;
		const shares = [
			noopGrowth !== undefined ? `the node's own share (beyond n8n's No Operation node, +${noopGrowth.toFixed(0)} MB): ${(raw - noopGrowth).toFixed(0)} MB off, ${(simple - noopGrowth).toFixed(0)} MB on` : '',
			sameGrowth !== undefined ? `beyond its output (a Set node making the whole answer grows ${sameGrowth.toFixed(0)} MB): ${(raw - sameGrowth).toFixed(0)} MB with Simplify off` : '',
		].filter(Boolean);
		add(
			`Memory with Simplify (Address Verification v2, ${byKey(results, 'M-addr-raw-small').count} -> ${byKey(results, 'M-addr-raw-large').count} items): on grows less than off`,
			simple < raw,
			`off ${mb(rawSmall).toFixed(0)} -> ${mb(rawLarge).toFixed(0)} MB (+${raw.toFixed(0)} MB), on ${mb(simpleSmall).toFixed(0)} -> ${mb(simpleLarge).toFixed(0)} MB (+${simple.toFixed(0)} MB): Simplify saves ${(raw - simple).toFixed(0)} MB at ${byKey(results, 'M-addr-raw-large').count} items${shares.length ? `; ${shares.join('; ')}` : ''}`,
		);
	}
	return targets;
}

// ------------------------------------------------------------------------------------------------
// Rendering

const fmtMb = (kb) => (kb === null || kb === undefined || kb === 0 ? '-' : `${(kb / 1024).toFixed(0)} MB`);
const fmtN = (n) => (n === null || n === undefined ? '-' : String(n));

const COLUMNS = [
	'configuration',
	'runs',
	'node time (median)',
	'1st request at',
	'process wall (median)',
	'x plain',
	'x N/rate',
	'succeeded',
	'lost',
	'duplicated',
	'/auth per run',
	'429s',
	'peak concurrency',
	'peak RSS',
];

function rowCells(results, r) {
	const { vsPlain, vsLimit } = ratios(results, r);
	if (r.kind === 'limit') {
		return [r.label, '-', fmtS(r.limitMs), '-', '-', fmtX(vsPlain), fmtX(vsLimit), '-', '-', '-', '-', '-', '-', '-'];
	}
	const errors = r.errors.length ? ` [${r.errors.length} run(s) failed]` : '';
	return [
		r.label + errors,
		String(r.runs),
		fmtS(r.nodeMs),
		r.kind === 'n8n' && r.firstRequestMs !== null ? fmtS(r.firstRequestMs) : '-',
		fmtS(r.processMs),
		r.group === 'memory' ? '-' : fmtX(vsPlain),
		r.group === 'rate' ? fmtX(vsLimit) : '-',
		`${fmtN(r.succeeded)}/${r.count}`,
		fmtN(r.lost),
		fmtN(r.duplicated),
		r.authCalls.join(', '),
		r.status429Runs.join(', '),
		fmtN(r.maxConcurrent),
		fmtMb(r.peakRssKb),
	];
}

function groups(report) {
	const order = ['latency', 'rate', 'memory'];
	return order
		.map((g) => ({ group: g, title: GROUP_TITLES[g](report.meta.settings), rows: report.results.filter((r) => r.group === g) }))
		.filter((g) => g.rows.length);
}

function renderText(report) {
	const lines = [];
	for (const g of groups(report)) {
		const table = [COLUMNS, ...g.rows.map((r) => rowCells(report.results, r))];
		const widths = COLUMNS.map((_, i) => Math.max(...table.map((row) => row[i].length)));
		lines.push('', g.title);
		table.forEach((row, index) => {
			lines.push(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
			if (index === 0) lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
		});
	}
	lines.push('', 'Targets');
	for (const t of report.targets) {
		lines.push(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${t.measured}${t.note ? ` (${t.note})` : ''}`);
	}
	if (report.meta.maxLoad1 > report.meta.cpus + 1) {
		lines.push('', `WARNING: the 1-minute load average reached ${report.meta.maxLoad1.toFixed(1)} on ${report.meta.cpus} CPUs during the runs (the benchmark itself accounts for 1 to 2): other work competed with it.`);
	}
	lines.push('', `n8n ${report.meta.n8nVersion ?? '-'} on Node ${report.meta.n8nNode ?? '-'}; bench on Node ${report.meta.node}, ${report.meta.cpus} CPUs; total ${fmtS(report.meta.totalMs)}`, '');
	return lines.join('\n');
}

function renderMarkdown(report) {
	const m = report.meta;
	const out = [
		'# Benchmark results',
		'',
		`Produced by \`npm run bench\` on ${m.date.slice(0, 10)}: n8n ${m.n8nVersion ?? '-'} (Node ${m.n8nNode ?? '-'}) via \`n8n execute\`, ` +
			`bench and emulator on Node ${m.node}, ${m.cpus} CPUs (${m.cpuModel ?? 'unknown CPU'}), ${m.memoryGb} GB RAM. ` +
			`Runs per configuration: ${m.settings.runs} (median shown; memory runs: ${m.settings.memoryRuns}). Whole run: ${fmtS(m.totalMs)}.`,
		'',
		'See [README.md](README.md) for what each column means.',
	];
	if (m.maxLoad1 > m.cpus + 1) {
		out.push('', `> The 1-minute load average reached ${m.maxLoad1.toFixed(1)} on ${m.cpus} CPUs during the runs (the benchmark itself accounts for 1 to 2): other work competed with it.`);
	}
	for (const g of groups(report)) {
		out.push('', `## ${g.title}`, '', `| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`);
		for (const r of g.rows) out.push(`| ${rowCells(report.results, r).join(' | ')} |`);
	}
	out.push('', '## Targets', '');
	for (const t of report.targets) {
		out.push(`- **${t.pass ? 'PASS' : 'FAIL'}** ${t.name}: ${t.measured}${t.note ? ` (${t.note})` : ''}`);
	}
	const failed = report.results.flatMap((r) => r.perRun.map((run, i) => ({ r, run, i })).filter((x) => x.run.error));
	if (failed.length) {
		out.push('', '## Failed runs', '');
		for (const { r, run, i } of failed) out.push(`- ${r.label}, run ${i + 1}: ${run.error}`);
	}
	out.push('');
	return out.join('\n');
}

module.exports = { evaluateTargets, renderText, renderMarkdown };

'use strict';
// Each bench table is printed twice: as aligned text on stdout and as Markdown in results.md.

/** Rows (the first one the header) as lines of left-aligned text columns. */
function textTable(rows) {
	const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
	return rows.map((r) => r.map((c, i) => String(c ?? '').padEnd(widths[i])).join('  '));
}

/** Rows (the first one the header) as the lines of a Markdown table; a missing cell shows "-". */
function markdownTable(rows) {
	return [`| ${rows[0].join(' | ')} |`, `| ${rows[0].map(() => '---').join(' | ')} |`, ...rows.slice(1).map((r) => `| ${r.map((c) => c ?? '-').join(' | ')} |`)];
}

/** Milliseconds as seconds ("1.23 s"), a ratio as "0.85x"; a missing value as "-". */
const fmtS = (ms) => (ms === null || ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);
const fmtX = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : `${x.toFixed(2)}x`);

module.exports = { textTable, markdownTable, fmtS, fmtX };

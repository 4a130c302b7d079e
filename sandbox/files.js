'use strict';

// Small deterministic PDF files served at /files/{plain|signed}/<name> (QES resourceUrl targets).

const FILE_KINDS = new Set(['plain', 'signed']);
const FILE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** A minimal, valid one-page PDF whose only text is `text` (ASCII). */
function buildPdf(text) {
	const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '');
	const stream = `BT /F1 14 Tf 72 720 Td (${safe}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let out = '%PDF-1.4\n';
	const offsets = [];
	objects.forEach((body, i) => {
		offsets.push(out.length);
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = out.length;
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

/** Bytes served for /files/<kind>/<name>, or null if the kind or name is not acceptable. */
function fileBytes(kind, name) {
	if (!FILE_KINDS.has(kind) || !FILE_NAME.test(name)) return null;
	return buildPdf(`Sandbox ${kind === 'signed' ? 'signed' : 'unsigned'} document ${name}`);
}

/** URL path (below the server origin) of a session's document. */
function filePath(kind, sessionId) {
	return `/files/${kind}/${encodeURIComponent(`${sessionId}.pdf`)}`;
}

module.exports = { buildPdf, fileBytes, filePath };

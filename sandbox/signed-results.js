'use strict';

// Signed results as the provider sends them (hosted identity journey and bank payments): the
// payloads, the signature (header Signature = hex HMAC-SHA256 of the raw body with the webhook
// secret), and the forged copies of a delivery that a receiver must refuse.

const crypto = require('node:crypto');

const { SANDBOX_CUSTOMER_ID } = require('./constants');

/** The provider's User-Agent on webhook deliveries. */
const PROVIDER_USER_AGENT = 'signteq.io API';

const hmac = (algorithm, key, bytes) => crypto.createHmac(algorithm, key).update(bytes);

/** The Signature header: HMAC-SHA256 of the bytes, hex in `hexCase` (lower as the provider, upper, mixed). */
function sign(bytes, secret, hexCase = 'lower') {
	const hex = hmac('sha256', secret, bytes).digest('hex');
	if (hexCase === 'upper') return hex.toUpperCase();
	if (hexCase === 'mixed') return [...hex].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
	return hex;
}

/** A hosted journey result (section "Results arrive by webhook" of the journey docs). */
function journeyResult({ transactionId = `tx-${crypto.randomUUID()}`, status = 'complete', success = 'PASS', extra } = {}) {
	const timestamp = new Date().toISOString();
	return {
		transactionId,
		customerId: SANDBOX_CUSTOMER_ID,
		timestamp,
		status,
		success,
		generalTransactionData: { timestamp, status, success },
		journeySummary: {
			journeyStats: { completedSteps: '3', startTime: new Date(Date.now() - 90_000).toISOString() },
			steps: [{ id: 'document', type: 'documentVerification', status, success }],
		},
		...(extra || {}),
	};
}

/**
 * A bank payment result. The provider documents the delivery rules but not this body; the emulator
 * sends what POST /payments/status answers ({status, statusReasonInformation}) with the payment's ids.
 */
function paymentResult({ referenceId = `ref-${crypto.randomUUID()}`, requestId, status = 'SUCCESS', statusReasonInformation, extra } = {}) {
	return {
		referenceId,
		requestId: requestId || `req-${crypto.createHash('sha256').update(referenceId).digest('hex').slice(0, 16)}`,
		status,
		statusReasonInformation: statusReasonInformation === undefined ? `Payment ${status.toLowerCase()}` : statusReasonInformation,
		timestamp: new Date().toISOString(),
		...(extra || {}),
	};
}

/** `text` with one character in the middle replaced by another letter or digit (length unchanged). */
function alterMiddle(text) {
	const from = Math.floor(text.length / 2);
	for (let i = from; i < text.length; i++) {
		if (/[A-Za-z0-9]/.test(text[i])) return text.slice(0, i) + (text[i] === 'x' ? 'y' : 'x') + text.slice(i + 1);
	}
	return `${text}x`;
}

/** The same JSON with the first letter inside a string value written as a \u escape. */
function unicodeEscaped(text) {
	const m = /:"([A-Za-z])/.exec(text);
	if (!m) return `${text} `;
	const code = m[1].charCodeAt(0).toString(16).padStart(4, '0');
	return `${text.slice(0, m.index)}:"\\u${code}${text.slice(m.index + 3)}`;
}

/** Keys of every object in reverse order: the same content, other bytes. */
function reorder(value) {
	if (Array.isArray(value)) return value.map(reorder);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(Object.keys(value).reverse().map((key) => [key, reorder(value[key])]));
}

const asJson = (ctx) => {
	if (ctx.json === undefined) throw new Error('this forgery needs a JSON body');
	return ctx.json;
};

/**
 * Forged copies of a genuine delivery. `make(ctx)` gets {bytes, text, json, secret, signature (the
 * genuine one)} and returns what to send instead: {bytes?, signature?} where signature is a string,
 * an array (the header repeated), null (no header); `header` names another header for it.
 * None of them carries a valid signature of what it sends.
 */
const FORGERIES = {
	noSignature: { what: 'no Signature header', make: () => ({ signature: null }) },
	emptySignature: { what: 'Signature header present but empty', make: () => ({ signature: '' }) },
	otherSecret: { what: 're-signed with another secret', make: (c) => ({ signature: hmac('sha256', `${c.secret}-other`, c.bytes).digest('hex') }) },
	secretWithNewline: { what: 'signed with the secret plus a trailing newline', make: (c) => ({ signature: hmac('sha256', `${c.secret}\n`, c.bytes).digest('hex') }) },
	emptySecret: { what: 'signed with an empty secret', make: (c) => ({ signature: hmac('sha256', '', c.bytes).digest('hex') }) },
	bodyByteChanged: { what: 'one byte in the middle of the body changed, genuine signature', make: (c) => ({ bytes: Buffer.from(alterMiddle(c.text)) }) },
	verdictChanged: {
		what: 'verdict or status changed (PASS -> FLAG), genuine signature',
		make: (c) => ({ bytes: Buffer.from(c.text.replace(/"(PASS|DECLINE|REVIEW|SUCCESS|FAILED)"/, (_, v) => (v === 'PASS' ? '"FLAG"' : '"PASS"'))) }),
	},
	trailingNewline: { what: 'a newline appended to the body, genuine signature', make: (c) => ({ bytes: Buffer.concat([c.bytes, Buffer.from('\n')]) }) },
	leadingSpace: { what: 'a space before the body, genuine signature', make: (c) => ({ bytes: Buffer.concat([Buffer.from(' '), c.bytes]) }) },
	byteOrderMark: { what: 'a UTF-8 byte order mark before the body, genuine signature', make: (c) => ({ bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), c.bytes]) }) },
	nulAppended: { what: 'a NUL byte appended, genuine signature', make: (c) => ({ bytes: Buffer.concat([c.bytes, Buffer.from([0])]) }) },
	prettyPrinted: { what: 'JSON re-encoded with indentation, genuine signature', make: (c) => ({ bytes: Buffer.from(JSON.stringify(asJson(c), null, 2)) }) },
	keysReordered: { what: 'JSON re-encoded with the keys in another order, genuine signature', make: (c) => ({ bytes: Buffer.from(JSON.stringify(reorder(asJson(c)))) }) },
	unicodeEscaped: { what: 'JSON re-encoded with a letter as a \\u escape (same content), genuine signature', make: (c) => ({ bytes: Buffer.from(unicodeEscaped(c.text)) }) },
	truncatedBody: { what: 'body cut short by 10 bytes, genuine signature', make: (c) => ({ bytes: c.bytes.subarray(0, Math.max(0, c.bytes.length - 10)) }) },
	emptyBody: { what: 'empty body, genuine signature', make: () => ({ bytes: Buffer.alloc(0) }) },
	otherBodysSignature: { what: 'the genuine signature of another body', make: (c) => ({ signature: hmac('sha256', c.secret, Buffer.from(`${c.text} `)).digest('hex') }) },
	emptyBodysSignature: { what: 'the genuine signature of an empty body', make: (c) => ({ signature: hmac('sha256', c.secret, Buffer.alloc(0)).digest('hex') }) },
	truncatedHex: { what: 'signature missing its last hex digit (63 chars)', make: (c) => ({ signature: c.signature.slice(0, -1) }) },
	halfHex: { what: 'signature cut to its first 32 hex digits', make: (c) => ({ signature: c.signature.slice(0, 32) }) },
	extendedHex: { what: 'signature with one hex digit appended (65 chars)', make: (c) => ({ signature: `${c.signature}0` }) },
	prefixedHex: { what: 'signature written as "sha256=<hex>"', make: (c) => ({ signature: `sha256=${c.signature}` }) },
	innerSpace: { what: 'signature with a space in the middle', make: (c) => ({ signature: `${c.signature.slice(0, 32)} ${c.signature.slice(32)}` }) },
	nonHexDigit: { what: 'signature with one digit replaced by "g" (64 chars, not hex)', make: (c) => ({ signature: `g${c.signature.slice(1)}` }) },
	zeros: { what: '64 zeros', make: () => ({ signature: '0'.repeat(64) }) },
	base64Digest: { what: 'the genuine digest in base64 instead of hex', make: (c) => ({ signature: hmac('sha256', c.secret, c.bytes).digest('base64') }) },
	hmacSha1: { what: 'HMAC-SHA1 of the body (40 hex)', make: (c) => ({ signature: hmac('sha1', c.secret, c.bytes).digest('hex') }) },
	hmacSha512: { what: 'HMAC-SHA512 of the body (128 hex)', make: (c) => ({ signature: hmac('sha512', c.secret, c.bytes).digest('hex') }) },
	hmacMd5: { what: 'HMAC-MD5 of the body (32 hex)', make: (c) => ({ signature: hmac('md5', c.secret, c.bytes).digest('hex') }) },
	hmacSha3: { what: 'HMAC-SHA3-256 of the body (64 hex, the same length)', make: (c) => ({ signature: hmac('sha3-256', c.secret, c.bytes).digest('hex') }) },
	plainSha256: { what: 'SHA-256 of the body without the secret (64 hex)', make: (c) => ({ signature: crypto.createHash('sha256').update(c.bytes).digest('hex') }) },
	secretPrefixSha256: { what: 'SHA-256 of secret + body, not an HMAC (64 hex)', make: (c) => ({ signature: crypto.createHash('sha256').update(c.secret).update(c.bytes).digest('hex') }) },
	twoHeaders: { what: 'two Signature headers, the genuine one and a wrong one', make: (c) => ({ signature: [c.signature, '0'.repeat(64)] }) },
	twoGenuineHeaders: { what: 'two Signature headers, both genuine', make: (c) => ({ signature: [c.signature, c.signature] }) },
	otherHeaderName: { what: 'the genuine signature under X-Signature instead of Signature', make: (c) => ({ signature: c.signature, header: 'X-Signature' }) },
};

/** The forged request for `kind`: {bytes, headers}. */
function forge(kind, { bytes, contentType, secret }) {
	const forgery = FORGERIES[kind];
	if (!forgery) throw new Error(`unknown forgery "${kind}"`);
	const text = bytes.toString('utf8');
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	const signature = sign(bytes, secret);
	const out = forgery.make({ bytes, text, json, secret, signature });
	const headers = { 'Content-Type': contentType, 'User-Agent': PROVIDER_USER_AGENT };
	const value = out.signature === undefined ? signature : out.signature;
	if (value !== null) headers[out.header || 'Signature'] = value;
	return { bytes: out.bytes || bytes, headers };
}

module.exports = { FORGERIES, PROVIDER_USER_AGENT, forge, journeyResult, paymentResult, sign };

'use strict';

// Outgoing webhook deliveries (node:http / node:https): QES status pings and signed results.

const http = require('node:http');
const https = require('node:https');

const DELIVERY_TIMEOUT_MS = 10000;
const USER_AGENT = 'verification-services-sandbox/1.0';

/**
 * POSTs `bytes` to `url` with `headers` (an array value sends the header once per element).
 * Resolves {delivered (2xx), status, body, ms}; a network error, or no answer within `timeoutMs`,
 * gives status null and `error`. Never rejects.
 */
function postBytes(url, bytes, headers, timeoutMs = DELIVERY_TIMEOUT_MS) {
	const started = Date.now();
	return new Promise((resolve) => {
		const done = (result) => resolve({ ...result, ms: Date.now() - started });
		let target;
		try {
			target = new URL(url);
		} catch {
			done({ delivered: false, status: null, body: null, error: 'Invalid webhook URL' });
			return;
		}
		const transport = target.protocol === 'https:' ? https : http;
		const req = transport.request(
			target,
			{ method: 'POST', agent: false, timeout: timeoutMs, headers: { 'User-Agent': USER_AGENT, ...headers, 'Content-Length': bytes.length } },
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let body = text;
					try {
						body = text === '' ? null : JSON.parse(text);
					} catch {
						// keep the raw text
					}
					const status = res.statusCode;
					done({ delivered: status >= 200 && status < 300, status, body });
				});
				res.on('error', (err) => done({ delivered: false, status: res.statusCode, body: null, error: err.message }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`Webhook did not answer within ${timeoutMs} ms`)));
		req.on('error', (err) => done({ delivered: false, status: null, body: null, error: err.message }));
		req.end(bytes);
	});
}

/**
 * POSTs `payload` as JSON to webhook.url with every metadata.authHeader header.
 * Resolves {delivered, status, body} (delivered = 2xx); network errors give status null and `error`.
 */
async function deliverPing(webhook, payload) {
	const authHeaders = (webhook.metadata && webhook.metadata.authHeader) || {};
	const { ms: _ms, ...result } = await postBytes(webhook.url, Buffer.from(JSON.stringify(payload)), { ...authHeaders, 'Content-Type': 'application/json' });
	return result;
}

module.exports = { deliverPing, postBytes };

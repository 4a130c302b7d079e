'use strict';

// Delivers QES status pings to the configured webhook URL (node:http / node:https).

const http = require('node:http');
const https = require('node:https');

const DELIVERY_TIMEOUT_MS = 10000;

/**
 * POSTs `payload` as JSON to webhook.url with every metadata.authHeader header.
 * Resolves {delivered, status, body} (delivered = 2xx); network errors give status null and `error`.
 */
function deliverPing(webhook, payload) {
	return new Promise((resolve) => {
		const data = Buffer.from(JSON.stringify(payload));
		const authHeaders = (webhook.metadata && webhook.metadata.authHeader) || {};
		let url;
		try {
			url = new URL(webhook.url);
		} catch {
			resolve({ delivered: false, status: null, body: null, error: 'Invalid webhook URL' });
			return;
		}
		const transport = url.protocol === 'https:' ? https : http;
		const req = transport.request(
			url,
			{
				method: 'POST',
				agent: false,
				timeout: DELIVERY_TIMEOUT_MS,
				headers: {
					...authHeaders,
					'Content-Type': 'application/json',
					'Content-Length': data.length,
					'User-Agent': 'verification-services-sandbox/1.0',
				},
			},
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
					resolve({ delivered: status >= 200 && status < 300, status, body });
				});
				res.on('error', (err) => resolve({ delivered: false, status: res.statusCode, body: null, error: err.message }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`Webhook did not answer within ${DELIVERY_TIMEOUT_MS} ms`)));
		req.on('error', (err) => resolve({ delivered: false, status: null, body: null, error: err.message }));
		req.end(data);
	});
}

module.exports = { deliverPing };

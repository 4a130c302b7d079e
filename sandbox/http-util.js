'use strict';

// Small HTTP helpers: the error type handlers throw, body reading, JSON parsing and answering.

const http = require('node:http');

/** An error that becomes an HTTP answer: status plus a JSON body (default `{message}`). */
class ApiError extends Error {
	constructor(status, message, options = {}) {
		super(message);
		this.status = status;
		this.body = options.body || { message };
		this.headers = options.headers || {};
	}
}

/** Shorthand for a 200 (or other) result returned by a handler. */
function ok(body, status = 200, headers = {}) {
	return { status, body, headers };
}

/** Collects the request body into a Buffer; rejects with ApiError(413) past `limit` bytes. */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		let failed = false;
		req.on('data', (chunk) => {
			if (failed) return;
			size += chunk.length;
			if (size > limit) {
				failed = true;
				reject(new ApiError(413, 'Request body too large'));
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => {
			if (!failed) resolve(Buffer.concat(chunks, size));
		});
		req.on('error', (err) => {
			if (!failed) {
				failed = true;
				reject(err);
			}
		});
	});
}

/**
 * Parses a JSON request body that must be an object. Empty body -> {}.
 * Throws ApiError(400) for invalid JSON or a non-object document.
 */
function parseJsonObject(text) {
	if (text.trim() === '') return {};
	let value;
	try {
		value = JSON.parse(text);
	} catch {
		throw new ApiError(400, 'Invalid JSON body');
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new ApiError(400, 'Request body must be a JSON object');
	}
	return value;
}

/** Writes a JSON answer (keeps the connection alive). */
function sendJson(res, status, body, headers = {}) {
	if (res.headersSent || res.destroyed) return;
	const payload = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(payload),
		...headers,
	});
	res.end(payload);
}

/** Writes raw bytes with the given headers. */
function sendBytes(res, status, bytes, headers = {}) {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, { 'Content-Length': bytes.length, ...headers });
	res.end(bytes);
}

/** Standard body of a rate-limit / unavailable style error: {error, message, code}. */
function gatewayErrorBody(status, message) {
	return { error: http.STATUS_CODES[status] || 'Error', message, code: String(status) };
}

/** Puts `value` under `key` and drops the oldest entries beyond `max` (Map keeps insertion order). */
function boundedSet(map, key, value, max) {
	map.delete(key);
	map.set(key, value);
	while (map.size > max) map.delete(map.keys().next().value);
}

/** `map.get(key)`, or the API's 404 "<what> not found". */
function found(map, key, what) {
	const value = map.get(key);
	if (!value) throw new ApiError(404, `${what} not found`);
	return value;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { ApiError, ok, readBody, parseJsonObject, sendJson, sendBytes, gatewayErrorBody, boundedSet, delay, found };

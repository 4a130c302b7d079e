'use strict';

// Latency, the rate limit and injected failures, all driven by state.config.

const http = require('node:http');
const { ApiError, delay, gatewayErrorBody } = require('./http-util');
const { createRateLimiter } = require('./rate-limiters');

const RATE_LIMIT_BODY = Object.freeze(gatewayErrorBody(429, 'Rate limit exceeded'));

/** Waits config.latencyMs (never blocks the event loop). */
function applyLatency(state) {
	const ms = state.config.latencyMs;
	return ms > 0 ? delay(ms) : Promise.resolve();
}

/**
 * The configured rate limiter (rate-limiters.js, kept in state until the config changes). Throws
 * ApiError(429) with its Retry-After when it refuses the request.
 */
function checkRateLimit(state, nowMs = Date.now()) {
	if (!state.config.rateLimit) return;
	state.rateLimiter ??= createRateLimiter(state.config.rateLimit);
	const retryAfter = state.rateLimiter.take(nowMs);
	if (retryAfter === undefined) return;
	throw new ApiError(429, RATE_LIMIT_BODY.message, {
		body: { ...RATE_LIMIT_BODY },
		headers: { 'Retry-After': String(retryAfter) },
	});
}

/**
 * The request's headers echoed back the way careless APIs do: as text, as JSON and URL-encoded.
 * Lets tests prove that the node never shows what the API echoes.
 */
function echoBody(status, req, rawText) {
	const pick = ['api-key', 'customer-id', 'authorization'].filter((name) => req.headers[name] !== undefined);
	const text = pick.map((name) => `${name}=${req.headers[name]}`).join(' ');
	const encoded = pick.map((name) => `${name}=${encodeURIComponent(req.headers[name])}`).join('&');
	return {
		message: `Request rejected (HTTP ${status}); headers: ${text}`,
		error: JSON.stringify({ headers: Object.fromEntries(pick.map((name) => [name, req.headers[name]])) }),
		request: { headers: { ...req.headers }, query: encoded, body: rawText || '' },
	};
}

/** Body and headers of an injected failure answer. */
function failureAnswer(state, failure, req, rawText) {
	const status = failure.status;
	const contentType = failure.contentType || 'application/json';
	if (failure.trickleMs !== undefined) return { trickleMs: failure.trickleMs, status, headers: { 'Content-Type': contentType } };
	if (failure.bytes !== undefined) return { bytes: failure.bytes, chunked: failure.chunked === true, status, headers: { 'Content-Type': contentType } };
	if (failure.location !== undefined) {
		return new ApiError(status, http.STATUS_CODES[status] || 'Redirect', { headers: { Location: failure.location } });
	}
	if (failure.raw !== undefined) {
		return { raw: failure.raw, status, headers: { 'Content-Type': failure.contentType || 'text/html; charset=utf-8' } };
	}
	if (failure.echoHeaders) return new ApiError(status, 'Injected echo', { body: echoBody(status, req, rawText) });
	if (failure.body !== undefined) return new ApiError(status, 'Injected failure', { body: failure.body });
	if (status === 429) {
		const retryAfter = failure.retryAfter !== undefined ? failure.retryAfter : state.config.failureRetryAfter;
		return new ApiError(429, RATE_LIMIT_BODY.message, {
			body: { ...RATE_LIMIT_BODY },
			headers: { 'Retry-After': String(retryAfter) },
		});
	}
	if (status === 503) {
		const headers = failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
		return new ApiError(503, 'Service temporarily unavailable', {
			body: gatewayErrorBody(503, 'Service temporarily unavailable'),
			headers,
		});
	}
	if (status === 500) return new ApiError(500, 'Internal server error');
	if (status > 500) return new ApiError(status, http.STATUS_CODES[status] || 'Error', {
		body: gatewayErrorBody(status, http.STATUS_CODES[status] || 'Error'),
	});
	return new ApiError(status, http.STATUS_CODES[status] || 'Error');
}

/**
 * Consumes one pending injected failure for `routeKey`, if any (a failure with `when` applies only
 * to requests whose body holds those values; one with `after` lets that many such requests through first).
 * Returns null, {drop: true} (close the socket), {hang: true} (never answer), {raw} (answer these
 * bytes as they are, e.g. an HTML page with 200), {trickleMs} (headers, then one byte every
 * trickleMs, never ending), {bytes} (that many bytes), or an ApiError to answer with.
 */
/** Whether a request's JSON body holds every `path: value` of a failure's `when` (dotted paths). */
function bodyMatches(when, rawText) {
	if (!when) return true;
	let body;
	try {
		body = JSON.parse(rawText || '{}');
	} catch {
		return false;
	}
	return Object.entries(when).every(([path, value]) => path.split('.').reduce((v, key) => (v !== null && typeof v === 'object' ? v[key] : undefined), body) === value);
}

function takeFailure(state, routeKey, req, rawText) {
	const failures = state.config.failures;
	const index = failures.findIndex((f) => f.route === routeKey && f.count > 0 && bodyMatches(f.when, rawText));
	if (index < 0) return null;
	const failure = failures[index];
	if (failure.after > 0) {
		failure.after -= 1; // this request is answered normally; the failure waits for a later one
		return null;
	}
	failure.count -= 1;
	if (failure.count <= 0) failures.splice(index, 1);
	if (failure.hang) return { hang: true };
	if (failure.status === 0) return { drop: true };
	return failureAnswer(state, failure, req, rawText);
}

module.exports = { applyLatency, checkRateLimit, takeFailure };

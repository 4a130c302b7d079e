'use strict';

// Request dispatch: control routes, downloadable files and the API pipeline
// (latency -> rate limit -> injected failure -> auth -> body -> handler -> record).

const { BASE_PATH, CONTROL_PATH, FILES_PATH, MAX_BODY_BYTES } = require('./constants');
const { ApiError, readBody, parseJsonObject, sendJson, sendBytes } = require('./http-util');
const { createState } = require('./state');
const { createTokenService, requireToken } = require('./auth');
const { applyLatency, checkRateLimit, takeFailure } = require('./limits');
const { matchRoute } = require('./router');
const { handleControl } = require('./control');
const { fileBytes } = require('./files');
const { redactHeaders, loggableBody } = require('./recorder');
const { handleHostedPage } = require('./hosted-flows');

/** Turns anything thrown into an answer; unexpected errors become 500. */
function toAnswer(err) {
	if (err instanceof ApiError) return { status: err.status, body: err.body, headers: err.headers };
	if (err instanceof URIError) return { status: 400, body: { message: 'Malformed URL' }, headers: {} };
	return { status: 500, body: { message: 'Internal server error' }, headers: {} };
}

/** Headers, then one space every trickleMs until the client goes: an answer that never completes. */
function sendTrickle(res, answer) {
	res.writeHead(answer.status, answer.headers);
	res.write('[');
	const timer = setInterval(() => res.write(' '), answer.trickleMs);
	res.on('close', () => clearInterval(timer));
}

/** `bytes` spaces in 1 MiB writes that wait for the client to read (never all in memory at once). */
function sendFill(res, answer) {
	const chunk = Buffer.alloc(Math.min(answer.bytes, 1024 * 1024), ' ');
	res.writeHead(answer.status, answer.chunked ? answer.headers : { ...answer.headers, 'Content-Length': answer.bytes });
	let left = answer.bytes;
	const pump = () => {
		while (left > 0 && !res.destroyed) {
			const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
			left -= part.length;
			if (!res.write(part)) return void res.once('drain', pump);
		}
		if (!res.destroyed) res.end();
	};
	pump();
}

function createApp({ config } = {}) {
	const state = createState(config);
	const tokens = createTokenService();
	let origin = 'http://127.0.0.1';
	let seq = 0;

	/** `seen.account`: the account whose token the request carried (or /auth issued one to). */
	async function runApi(req, match, rawText, query, seen) {
		if (!match) throw new ApiError(404, 'Not found');
		const { route } = match;
		// The token is checked once: its account is recorded whatever the answer (a 429, an injected
		// failure), its refusal answered after the rate limit and any injected failure.
		let refusal;
		if (route.auth !== false) {
			try {
				seen.account = requireToken(tokens, req).account ?? null;
			} catch (error) {
				refusal = error;
			}
		}
		if (route.rateLimited !== false) checkRateLimit(state);
		const failure = takeFailure(state, match.key, req, rawText);
		if (failure) {
			if (failure.drop || failure.hang || failure.raw !== undefined || failure.trickleMs || failure.bytes !== undefined) return failure;
			throw failure;
		}
		if (refusal) throw refusal;
		let body = {};
		if (!route.formBody && req.method !== 'GET' && req.method !== 'HEAD') body = parseJsonObject(rawText);
		return route.handler({ req, body, params: match.params, query, state, tokens, origin, routeKey: match.key, seen });
	}

	async function handleApi(req, res, url) {
		const receivedAt = new Date().toISOString();
		const mySeq = ++seq;
		const path = url.pathname.slice(BASE_PATH.length) || '/';
		const query = Object.fromEntries(url.searchParams);
		const match = matchRoute(req.method, path);
		const routeKey = match ? match.key : `${req.method} (unknown route)`;
		const recorder = state.recorder;
		const epoch = recorder.enter();
		let left = false;
		res.on('close', () => {
			if (!left) {
				left = true;
				recorder.leave();
			}
		});

		let rawText = '';
		let answer;
		const seen = { account: null };
		try {
			rawText = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
			await applyLatency(state);
			answer = await runApi(req, match, rawText, query, seen);
		} catch (err) {
			answer = toAnswer(err);
		}
		const status = answer.drop || answer.hang ? 0 : answer.status || 200;
		recorder.record({
			seq: mySeq,
			route: routeKey,
			method: req.method,
			path,
			url: req.url,
			query,
			params: match ? match.params : {},
			headers: redactHeaders(req.headers),
			body: loggableBody(rawText),
			receivedAt,
			status,
			account: seen.account,
		}, epoch);
		if (answer.drop) {
			req.socket.destroy();
			return;
		}
		// A hung request is answered by nobody; the server's close() ends its socket.
		if (answer.hang) return;
		if (answer.trickleMs) {
			sendTrickle(res, answer);
			return;
		}
		if (answer.bytes !== undefined) {
			sendFill(res, answer);
			return;
		}
		if (answer.raw !== undefined) {
			sendBytes(res, status, Buffer.isBuffer(answer.raw) ? answer.raw : Buffer.from(answer.raw, 'utf8'), answer.headers);
			return;
		}
		sendJson(res, status, answer.body, answer.headers || {});
	}

	async function handleControlRequest(req, res, url) {
		try {
			const rawText = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
			const answer = await handleControl({
				state,
				method: req.method,
				subPath: url.pathname.slice(CONTROL_PATH.length) || '/',
				query: Object.fromEntries(url.searchParams),
				rawBody: rawText,
			});
			sendJson(res, answer.status, answer.body, answer.headers);
		} catch (err) {
			const answer = toAnswer(err);
			sendJson(res, answer.status, answer.body, answer.headers);
		}
	}

	function handleFile(req, res, url) {
		req.resume();
		const m = /^\/files\/([a-z]+)\/([^/]+)$/.exec(url.pathname);
		let name = null;
		try {
			name = m ? decodeURIComponent(m[2]) : null;
		} catch {
			name = null;
		}
		const bytes = m && name && (req.method === 'GET' || req.method === 'HEAD') ? fileBytes(m[1], name) : null;
		if (!bytes) {
			sendJson(res, 404, { message: 'Not found' });
			return;
		}
		res.writeHead(200, {
			'Content-Type': 'application/pdf',
			'Content-Length': bytes.length,
			'Content-Disposition': `attachment; filename="${name}"`,
		});
		res.end(req.method === 'HEAD' ? undefined : bytes);
	}

	function handleSignPage(req, res, url) {
		req.resume();
		const html = Buffer.from(
			`<!doctype html><title>Sandbox signing</title><p>Sandbox signing page for ${url.pathname.slice(6).replace(/[^A-Za-z0-9._-]/g, '')}</p>`,
		);
		sendBytes(res, 200, html, { 'Content-Type': 'text/html; charset=utf-8' });
	}

	/** The node:http request listener. */
	function handle(req, res) {
		let url;
		try {
			url = new URL(req.url, 'http://sandbox.local');
		} catch {
			sendJson(res, 400, { message: 'Malformed URL' });
			return;
		}
		const p = url.pathname;
		if (p === BASE_PATH || p.startsWith(`${BASE_PATH}/`)) {
			handleApi(req, res, url);
		} else if (p === CONTROL_PATH || p.startsWith(`${CONTROL_PATH}/`)) {
			handleControlRequest(req, res, url);
		} else if (p.startsWith(`${FILES_PATH}/`)) {
			handleFile(req, res, url);
		} else if (p.startsWith('/sign/') && req.method === 'GET') {
			handleSignPage(req, res, url);
		} else if (/^\/(journey|pay)\//.test(p) && req.method === 'GET') {
			handleHostedPage(state, req, res, url).catch(() => sendJson(res, 500, { message: 'Internal server error' }));
		} else {
			req.resume();
			sendJson(res, 404, { message: 'Not found' });
		}
	}

	return {
		handle,
		state,
		tokens,
		/** Origin (http://host:port) used in absolute URLs the API returns. */
		setOrigin(value) {
			origin = value;
		},
	};
}

module.exports = { createApp };

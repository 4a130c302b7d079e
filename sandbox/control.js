'use strict';

// Test controls under /__control (no auth, not counted, not rate limited).

const { ApiError, ok, parseJsonObject } = require('./http-util');
const { getSession, setSession, pingPayload } = require('./qes');
const { deliverPing } = require('./webhook');
const { RESULT_CONTROL_ROUTES } = require('./result-controls');
const { HOSTED_CONTROL_ROUTES } = require('./hosted-flows');
const { optionalObject } = require('./validation');
const { changeAmlRecords } = require('./data/aml');

async function ping(state, sessionId, status, extra) {
	if (!state.webhook) return null;
	return deliverPing(state.webhook, pingPayload(sessionId, status, extra));
}

function requireSessionId(body) {
	if (typeof body.sessionId !== 'string' || body.sessionId.trim() === '') throw new ApiError(400, 'sessionId is required');
	return body.sessionId;
}

const CONTROL_ROUTES = [
	['GET', '/', () => ok({ controls: CONTROL_ROUTES.map((r) => `${r.method} /__control${r.path === '/' ? '' : r.path}`), docs: 'sandbox/README.md, "Controls"' })],
	['GET', '/health', () => ok({ ok: true })],
	[
		'POST',
		'/reset',
		({ state }) => {
			state.reset();
			return ok({ reset: true, config: state.config });
		},
	],
	['GET', '/config', ({ state }) => ok(state.config)],
	['POST', '/config', ({ state, body }) => ok(state.setConfig(body))],
	['GET', '/stats', ({ state }) => ok(state.recorder.stats())],
	['GET', '/requests', ({ state, query }) => ok(state.recorder.requests(query.route))],
	[
		'GET',
		'/webhook',
		({ state }) => {
			if (!state.webhook) throw new ApiError(404, 'No webhook configured');
			return ok(state.webhook);
		},
	],
	[
		'POST',
		'/qes/ping',
		async ({ state, body }) => {
			const sessionId = requireSessionId(body);
			const extra = optionalObject(body, 'extra');
			if (body.status !== undefined && typeof body.status !== 'string') throw new ApiError(400, 'status must be a string');
			if (!state.webhook) throw new ApiError(409, 'No webhook configured');
			const session = getSession(state, sessionId);
			const status = body.status || (session ? session.status : 'completed');
			return ok(await ping(state, sessionId, status, extra));
		},
	],
	[
		'POST',
		'/qes/sessions/:sessionId/state',
		async ({ state, body, params }) => {
			if (typeof body.status !== 'string' || body.status.trim() === '') throw new ApiError(400, 'status is required');
			if (body.isVerified !== undefined && typeof body.isVerified !== 'boolean') {
				throw new ApiError(400, 'isVerified must be a boolean');
			}
			const extra = optionalObject(body, 'extra');
			const session = setSession(state, params.sessionId, body.status, body.isVerified);
			const delivery = await ping(state, params.sessionId, session.status, extra);
			return ok({ session, delivery });
		},
	],
	[
		'GET',
		'/qes/sessions/:sessionId',
		({ state, params }) => {
			const session = getSession(state, params.sessionId);
			if (!session) throw new ApiError(404, 'Session not found');
			return ok(session);
		},
	],
	[
		'GET',
		'/journeys/:journeyId',
		({ state, params }) => {
			const journey = state.journeys.get(params.journeyId);
			if (!journey) throw new ApiError(404, 'Journey not found');
			const { imageData: _bytes, ...described } = journey; // the images' bytes come back from /verify
			return ok(described);
		},
	],
	[
		'GET',
		'/phone/messages',
		({ state, query }) =>
			ok(query.referenceId ? state.phoneMessages.filter((m) => m.referenceId === query.referenceId) : state.phoneMessages),
	],
	[
		'GET',
		'/phone/:referenceId',
		({ state, params }) => {
			const request = state.phone.get(params.referenceId);
			if (!request) throw new ApiError(404, 'Verification not found');
			return ok(request);
		},
	],
	['GET', '/aml/profiles', ({ state }) => ok([...state.profiles.values()])],
	['GET', '/aml/records', ({ state }) => ok(state.amlRecords)],
	[
		'POST',
		'/aml/records',
		({ state, body }) => {
			try {
				state.amlRecords = changeAmlRecords(state.amlRecords, body.records);
			} catch (error) {
				throw new ApiError(400, error.message);
			}
			return ok({ records: state.amlRecords.length });
		},
	],
	...RESULT_CONTROL_ROUTES,
	...HOSTED_CONTROL_ROUTES,
].map(([method, path, handler]) => {
	const names = [];
	const source = path.replace(/:([A-Za-z]+)/g, (_, name) => {
		names.push(name);
		return '([^/]+)';
	});
	return { method, path, handler, names, regex: new RegExp(`^${source}$`) };
});

/** Answers a control request; `subPath` is the path below /__control. */
async function handleControl({ state, method, subPath, query, rawBody }) {
	for (const route of CONTROL_ROUTES) {
		if (route.method !== method) continue;
		const m = route.regex.exec(subPath);
		if (!m) continue;
		const params = {};
		route.names.forEach((name, i) => {
			params[name] = decodeURIComponent(m[i + 1]);
		});
		const body = method === 'GET' ? {} : parseJsonObject(rawBody);
		return route.handler({ state, body, params, query });
	}
	throw new ApiError(404, 'Not found');
}

module.exports = { handleControl, CONTROL_ROUTES };

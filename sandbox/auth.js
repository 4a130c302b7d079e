'use strict';

// HS256 JWT access tokens (node:crypto only), the POST /auth token exchange and bearer checks.

const crypto = require('node:crypto');
const { ApiError, ok } = require('./http-util');
const { SANDBOX_API_KEY, SANDBOX_CUSTOMER_ID } = require('./constants');

const b64url = (value) => Buffer.from(value).toString('base64url');
const JWT_HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const B64URL_PART = /^[A-Za-z0-9_-]+$/;

/** Creates a token signer/verifier with a secret that is random per server start. */
function createTokenService() {
	const secret = crypto.randomBytes(32);
	const hmac = (data) => crypto.createHmac('sha256', secret).update(data).digest();

	/** Issues a token of the named account valid for `lifetimeSeconds` (may be fractional). */
	function issue(customerId, lifetimeSeconds, nowMs = Date.now(), account = 'sandbox') {
		const expMs = nowMs + Math.round(lifetimeSeconds * 1000);
		const claims = {
			sub: customerId,
			customerId,
			account,
			iat: Math.floor(nowMs / 1000),
			exp: Math.floor(expMs / 1000),
			expMs,
			jti: crypto.randomUUID(),
		};
		const unsigned = `${JWT_HEADER}.${b64url(JSON.stringify(claims))}`;
		return { token: `${unsigned}.${hmac(unsigned).toString('base64url')}`, claims };
	}

	/** Returns {claims} or {error: 'invalid' | 'expired'}. */
	function verify(token, nowMs = Date.now()) {
		const parts = token.split('.');
		if (parts.length !== 3 || !parts.every((p) => B64URL_PART.test(p))) return { error: 'invalid' };
		let header;
		let claims;
		try {
			header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
			claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
		} catch {
			return { error: 'invalid' };
		}
		if (!header || header.alg !== 'HS256' || !claims || typeof claims !== 'object') return { error: 'invalid' };
		const expected = hmac(`${parts[0]}.${parts[1]}`);
		const given = Buffer.from(parts[2], 'base64url');
		if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { error: 'invalid' };
		const expMs = typeof claims.expMs === 'number' ? claims.expMs : typeof claims.exp === 'number' ? claims.exp * 1000 : NaN;
		if (!(expMs > nowMs)) return { error: 'expired' };
		return { claims };
	}

	return { issue, verify };
}

/** Throws 401 unless the request carries a valid, unexpired bearer token. Returns the claims. */
function requireToken(tokens, req) {
	const header = req.headers.authorization;
	if (header === undefined || header.trim() === '' || /^Bearer\s*$/i.test(header.trim())) {
		throw new ApiError(401, 'Missing access token');
	}
	const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!m) throw new ApiError(401, 'Invalid access token');
	const result = tokens.verify(m[1]);
	if (result.error === 'expired') throw new ApiError(401, 'Access token expired');
	if (result.error) throw new ApiError(401, 'Invalid access token');
	return result.claims;
}

/** The accounts /auth accepts: the sandbox's own, then those of config.accounts. */
function accountsOf(config) {
	return [{ name: 'sandbox', apiKey: SANDBOX_API_KEY, customerId: SANDBOX_CUSTOMER_ID }, ...config.accounts];
}

/**
 * POST /auth: credentials in the Api-Key and Customer-Id headers, empty form body. `seen.account`
 * records which account the token is issued to.
 */
function authRoute(ctx) {
	const apiKey = ctx.req.headers['api-key'];
	const customerId = ctx.req.headers['customer-id'];
	if (!apiKey || !customerId) throw new ApiError(401, 'Missing API key or customer id');
	const account = accountsOf(ctx.state.config).find((a) => a.apiKey === apiKey && a.customerId === customerId);
	if (!account) throw new ApiError(401, 'Invalid API key or customer id');
	ctx.seen.account = account.name;
	const lifetime = ctx.state.config.tokenLifetimeSeconds;
	const { token } = ctx.tokens.issue(customerId, lifetime, Date.now(), account.name);
	return ok({ access_token: token, expires_in: lifetime, token_type: 'Bearer' });
}

module.exports = { createTokenService, requireToken, authRoute };

'use strict';

// Runtime configuration of the emulator: defaults and validated merging of patches.

const { bad, isPlainObject: isObj } = require('./validation');
const { GENERATIONS } = require('./generation');
const { CLIENT_ACCOUNTS } = require('./constants');
const { DEFAULTS: RATE_LIMIT_DEFAULTS, KINDS: RATE_LIMIT_KINDS } = require('./rate-limiters');

const DEFAULT_CONFIG = Object.freeze({
	// Signed results' resends (result-delivery.js): the provider's waits x timeScale.
	resultDelivery: Object.freeze({ timeScale: 1, answerTimeoutMs: 10000, retries: 6 }),
	tokenLifetimeSeconds: 3600,
	latencyMs: 0,
	rateLimit: null,
	failures: [],
	failureRetryAfter: 1,
	// Which generation of the API's answer shapes to play (see generation.js): g2 or g3.
	generation: 'g2',
	// More accounts /auth accepts beside the sandbox's own (named "sandbox"): [{ name, apiKey, customerId }].
	accounts: CLIENT_ACCOUNTS,
});

const KEYS = Object.keys(DEFAULT_CONFIG);

function normaliseRateLimit(value) {
	if (value === null || value === false) return null;
	if (!isObj(value)) throw bad('rateLimit must be an object or null');
	const { requestsPerSecond, windowMs = RATE_LIMIT_DEFAULTS.windowMs, kind = RATE_LIMIT_DEFAULTS.kind, countRefused = RATE_LIMIT_DEFAULTS.countRefused, burst } = value;
	if (typeof requestsPerSecond !== 'number' || !(requestsPerSecond > 0)) {
		throw bad('rateLimit.requestsPerSecond must be a positive number');
	}
	if (typeof windowMs !== 'number' || !(windowMs > 0)) throw bad('rateLimit.windowMs must be a positive number');
	if (!RATE_LIMIT_KINDS.includes(kind)) throw bad(`rateLimit.kind must be one of ${RATE_LIMIT_KINDS.join(', ')}`);
	if (typeof countRefused !== 'boolean') throw bad('rateLimit.countRefused must be true or false');
	if (burst !== undefined && (kind !== 'bucket' || !(Number.isInteger(burst) && burst >= 1))) {
		throw bad('rateLimit.burst must be a positive integer, with kind "bucket"');
	}
	return { requestsPerSecond, windowMs, kind, countRefused, ...(burst === undefined ? {} : { burst }) };
}

function normaliseAccounts(value) {
	if (!Array.isArray(value)) throw bad('accounts must be an array');
	const names = new Set(['sandbox']);
	return value.map((a, i) => {
		if (!isObj(a)) throw bad(`accounts[${i}] must be an object`);
		for (const key of ['name', 'apiKey', 'customerId']) {
			if (typeof a[key] !== 'string' || a[key] === '') throw bad(`accounts[${i}].${key} must be a non-empty string`);
		}
		if (names.has(a.name)) throw bad(`accounts[${i}].name "${a.name}" is taken`);
		names.add(a.name);
		return { name: a.name, apiKey: a.apiKey, customerId: a.customerId };
	});
}

function normaliseFailures(value) {
	if (value === null) return [];
	if (!Array.isArray(value)) throw bad('failures must be an array');
	return value.map((f, i) => {
		if (!isObj(f)) throw bad(`failures[${i}] must be an object`);
		if (typeof f.route !== 'string' || !/^[A-Z]+ \//.test(f.route)) {
			throw bad(`failures[${i}].route must look like "POST /aml/checkIndividual"`);
		}
		const status = f.hang ? 0 : f.status;
		if (!Number.isInteger(status) || (status !== 0 && (status < 200 || status > 599))) {
			throw bad(`failures[${i}].status must be an HTTP status (200-599) or 0 (drop connection)`);
		}
		for (const key of ['raw', 'contentType', 'location']) {
			if (f[key] !== undefined && typeof f[key] !== 'string') throw bad(`failures[${i}].${key} must be a string`);
		}
		if (f.trickleMs !== undefined && !(Number.isInteger(f.trickleMs) && f.trickleMs > 0)) {
			throw bad(`failures[${i}].trickleMs must be a positive integer`);
		}
		if (f.bytes !== undefined && !(Number.isInteger(f.bytes) && f.bytes >= 0)) throw bad(`failures[${i}].bytes must be a non-negative integer`);
		const count = f.count === undefined ? 1 : f.count;
		if (!Number.isInteger(count) || count < 1) throw bad(`failures[${i}].count must be a positive integer`);
		if (f.retryAfter !== undefined && !(Number.isInteger(f.retryAfter) && f.retryAfter >= 0)) {
			throw bad(`failures[${i}].retryAfter must be a non-negative integer`);
		}
		if (f.when !== undefined && !(isObj(f.when) && Object.values(f.when).every((v) => v === null || typeof v !== 'object'))) {
			throw bad(`failures[${i}].when must be an object of body paths and plain values`);
		}
		const after = f.after === undefined ? 0 : f.after;
		if (!Number.isInteger(after) || after < 0) throw bad(`failures[${i}].after must be a non-negative integer`);
		const out = { route: f.route, status, count };
		if (after > 0) out.after = after;
		if (f.when !== undefined) out.when = { ...f.when };
		for (const key of ['retryAfter', 'body', 'raw', 'contentType', 'location', 'trickleMs', 'bytes']) if (f[key] !== undefined) out[key] = f[key];
		for (const flag of ['hang', 'echoHeaders', 'chunked']) if (f[flag] === true) out[flag] = true;
		return out;
	});
}

function normaliseResultDelivery(current, value) {
	if (!isObj(value)) throw bad('resultDelivery must be an object');
	const next = { ...current };
	for (const [key, v] of Object.entries(value)) {
		if (key === 'timeScale' && typeof v === 'number' && v > 0 && v <= 1) next.timeScale = v;
		else if (key === 'answerTimeoutMs' && Number.isInteger(v) && v > 0) next.answerTimeoutMs = v;
		else if (key === 'retries' && Number.isInteger(v) && v >= 0 && v <= 6) next.retries = v;
		else throw bad('resultDelivery takes timeScale (0 < x <= 1), answerTimeoutMs (positive integer), retries (0..6)');
	}
	return next;
}

/** Returns a new config: `base` with the validated members of `patch` applied. Throws 400. */
function mergeConfig(base, patch) {
	if (!isObj(patch)) throw bad('config must be a JSON object');
	const next = { ...base, failures: base.failures.map((f) => ({ ...f })), accounts: base.accounts.map((a) => ({ ...a })) };
	for (const [key, value] of Object.entries(patch)) {
		switch (key) {
			case 'resultDelivery':
				next.resultDelivery = normaliseResultDelivery(next.resultDelivery, value);
				break;
			case 'tokenLifetimeSeconds':
				if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
					throw bad('tokenLifetimeSeconds must be a positive number');
				}
				next.tokenLifetimeSeconds = value;
				break;
			case 'latencyMs':
				if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
					throw bad('latencyMs must be a non-negative number');
				}
				next.latencyMs = value;
				break;
			case 'rateLimit':
				next.rateLimit = normaliseRateLimit(value);
				break;
			case 'failures':
				next.failures = normaliseFailures(value);
				break;
			case 'failureRetryAfter':
				if (!Number.isInteger(value) || value < 0) throw bad('failureRetryAfter must be a non-negative integer');
				next.failureRetryAfter = value;
				break;
			case 'accounts':
				next.accounts = normaliseAccounts(value);
				break;
			case 'generation':
				if (!GENERATIONS.includes(value)) throw bad(`generation must be one of ${GENERATIONS.join(', ')}`);
				next.generation = value;
				break;
			default:
				throw bad(`Unknown config key: ${key} (known: ${KEYS.join(', ')})`);
		}
	}
	return next;
}

module.exports = { DEFAULT_CONFIG, mergeConfig };

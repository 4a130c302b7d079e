'use strict';

// Field validators. Each one throws ApiError(400, "<field> ...") naming the offending field.

const { ApiError } = require('./http-util');

const bad = (message) => new ApiError(400, message);

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Required non-blank string. */
function requireString(body, field, label = field) {
	const v = body[field];
	if (v === undefined || v === null) throw bad(`${label} is required`);
	if (typeof v !== 'string') throw bad(`${label} must be a string`);
	if (v.trim() === '') throw bad(`${label} must not be blank`);
	return v;
}

/** Optional string (undefined = absent); when present it must be a string. */
function optionalString(body, field, { maxLength, nonBlank = false, label = field } = {}) {
	const v = body[field];
	if (v === undefined) return undefined;
	if (typeof v !== 'string') throw bad(`${label} must be a string`);
	if (nonBlank && v.trim() === '') throw bad(`${label} must not be blank`);
	if (maxLength !== undefined && v.length > maxLength) throw bad(`${label} must be at most ${maxLength} characters`);
	return v;
}

/** Required string matching `pattern`. */
function requirePattern(body, field, pattern, description) {
	const v = requireString(body, field);
	if (!pattern.test(v)) throw bad(`${field} ${description}`);
	return v;
}

/** Optional string matching `pattern`. */
function optionalPattern(body, field, pattern, description) {
	const v = optionalString(body, field);
	if (v !== undefined && !pattern.test(v)) throw bad(`${field} ${description}`);
	return v;
}

/** Required string that is one of `values`. */
function requireEnum(body, field, values) {
	const v = body[field];
	if (v === undefined || v === null) throw bad(`${field} is required`);
	if (typeof v !== 'string' || !values.includes(v)) throw bad(`${field} must be one of: ${values.join(', ')}`);
	return v;
}

/** body[field], or undefined when absent; a value that fails `ok` is a 400 "<label> must be <what>". */
function optional(body, field, ok, what, label = field) {
	const v = body[field];
	if (v !== undefined && !ok(v)) throw bad(`${label} must be ${what}`);
	return v;
}

const optionalBoolean = (body, field, label = field) => optional(body, field, (v) => typeof v === 'boolean', 'a boolean', label);
const optionalObject = (body, field, label = field) => optional(body, field, isPlainObject, 'an object', label);

/** Required plain object. */
function requireObject(body, field) {
	const value = optionalObject(body, field);
	if (value === undefined) throw bad(`${field} is required`);
	return value;
}

/** Optional integer within [min, max]. */
function optionalInteger(body, field, { min = -Infinity, max = Infinity } = {}) {
	const v = body[field];
	if (v === undefined) return undefined;
	if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`${field} must be an integer`);
	if (v < min || v > max) {
		if (max === Infinity) throw bad(`${field} must be at least ${min}`);
		throw bad(`${field} must be between ${min} and ${max}`);
	}
	return v;
}

/** True for yyyy/mm/dd strings that name a real calendar date. */
function isRealSlashDate(s) {
	const m = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(s);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Optional date of birth in yyyy/mm/dd form. */
const optionalDob = (body, field = 'dob') => optional(body, field, (v) => typeof v === 'string' && isRealSlashDate(v), 'a valid date in the format yyyy/mm/dd');

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True for non-empty standard base64 (line breaks tolerated, padding required). */
function isBase64(s) {
	if (typeof s !== 'string') return false;
	const compact = s.replace(/\r?\n/g, '');
	return compact.length > 0 && BASE64.test(compact);
}

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

function isEmail(s) {
	return typeof s === 'string' && s.length <= 254 && EMAIL.test(s);
}

/** True for absolute http:// or https:// URLs. */
function isHttpUrl(s) {
	if (typeof s !== 'string') return false;
	try {
		const u = new URL(s);
		return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
	} catch {
		return false;
	}
}

/** True for an IBAN without spaces in upper case whose check digits match (ISO 13616: 1 modulo 97). */
function isIban(s) {
	if (typeof s !== 'string' || !/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(s)) return false;
	const digits = [...(s.slice(4) + s.slice(0, 4))].map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
	let remainder = 0;
	for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
	return remainder === 1;
}

/** True for an E.164 number: + and 6 to 15 digits, the first not 0. */
function isE164(s) {
	return typeof s === 'string' && /^\+[1-9][0-9]{5,14}$/.test(s);
}

module.exports = {
	bad,
	isPlainObject,
	requireString,
	optionalString,
	requirePattern,
	optionalPattern,
	requireEnum,
	optionalBoolean,
	optionalObject,
	requireObject,
	optionalInteger,
	optionalDob,
	isRealSlashDate,
	isBase64,
	isEmail,
	isHttpUrl,
	isIban,
	isE164,
};

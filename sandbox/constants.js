'use strict';

// Fixed values shared by every part of the emulator.

/** API key accepted by POST /auth (sandbox only, not a secret). */
const SANDBOX_API_KEY = '4f8a4d52-5b8e-4c7e-9a41-0c1d2e3f4a5b';
/** Customer id accepted by POST /auth together with SANDBOX_API_KEY. */
const SANDBOX_CUSTOMER_ID = 'c0ffee00-1234-4abc-8def-000000000001';

/**
 * Two more accounts /auth accepts by default (config `accounts`), as a platform's client companies
 * would have: examples/several-accounts.json screens customers under each (sandbox only, not secrets).
 */
const CLIENT_ACCOUNTS = Object.freeze([
	Object.freeze({ name: 'client-a', apiKey: '7d1e2c3b-aaaa-4b5c-8d9e-0a1b2c3d4e5f', customerId: 'c0ffee00-1234-4abc-8def-00000000000a' }),
	Object.freeze({ name: 'client-b', apiKey: '8e2f3d4c-bbbb-4c6d-9e0f-1b2c3d4e5f60', customerId: 'c0ffee00-1234-4abc-8def-00000000000b' }),
]);

/** All API routes live under this prefix, mirroring production. */
const BASE_PATH = '/api/services';
/** Test controls live under this prefix (no auth, never rate limited). */
const CONTROL_PATH = '/__control';
/** Downloadable QES documents (resourceUrl targets). */
const FILES_PATH = '/files';

/** Largest request body accepted (bytes); larger bodies get 413. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** Number of requests kept in the request log. */
const REQUEST_LOG_LIMIT = 20000;
/** Strings longer than this are shortened in the request log (keeps memory bounded). */
const LOG_STRING_LIMIT = 64 * 1024;
/** Upper bound for each in-memory store (journeys, searches, phone requests...). */
const STORE_LIMIT = 100000;

module.exports = {
	SANDBOX_API_KEY,
	SANDBOX_CUSTOMER_ID,
	CLIENT_ACCOUNTS,
	BASE_PATH,
	CONTROL_PATH,
	FILES_PATH,
	MAX_BODY_BYTES,
	REQUEST_LOG_LIMIT,
	LOG_STRING_LIMIT,
	STORE_LIMIT,
};

'use strict';

// Counters (per route, per status, concurrency peak) and the bounded request log.

const { REQUEST_LOG_LIMIT, LOG_STRING_LIMIT } = require('./constants');

const REDACTED_HEADERS = new Set(['authorization', 'api-key', 'customer-id']);

/** Copy of the headers with credential values replaced by "[redacted]" (presence kept). */
function redactHeaders(headers) {
	const out = {};
	for (const [name, value] of Object.entries(headers)) {
		out[name] = REDACTED_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
	}
	return out;
}

/** Shortens very long strings (e.g. base64 images) so 20,000 log entries stay small. */
function shrink(value) {
	if (typeof value === 'string') {
		return value.length > LOG_STRING_LIMIT
			? `${value.slice(0, LOG_STRING_LIMIT)}...[truncated ${value.length - LOG_STRING_LIMIT} chars]`
			: value;
	}
	if (Array.isArray(value)) return value.map(shrink);
	if (value && typeof value === 'object') {
		const out = {};
		for (const [k, v] of Object.entries(value)) out[k] = shrink(v);
		return out;
	}
	return value;
}

/** Body for the log: parsed JSON when possible, otherwise the raw text (e.g. a form body). */
function loggableBody(text) {
	if (text === '') return null;
	if (text.length <= LOG_STRING_LIMIT) {
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}
	try {
		return shrink(JSON.parse(text));
	} catch {
		return shrink(text);
	}
}

function createRecorder() {
	const r = {
		counts: {},
		status: {},
		total: 0,
		inFlight: 0,
		maxConcurrent: 0,
		epoch: 0,
		log: new Array(REQUEST_LOG_LIMIT),
		logStart: 0,
		logSize: 0,
	};

	return {
		reset() {
			r.epoch += 1; // a request under way belongs to what was reset: it is never recorded
			r.counts = {};
			r.status = {};
			r.total = 0;
			r.maxConcurrent = r.inFlight; // requests still in flight remain counted
			r.log = new Array(REQUEST_LOG_LIMIT);
			r.logStart = 0;
			r.logSize = 0;
		},
		enter() {
			r.inFlight += 1;
			if (r.inFlight > r.maxConcurrent) r.maxConcurrent = r.inFlight;
			return r.epoch;
		},
		leave() {
			r.inFlight = Math.max(0, r.inFlight - 1);
		},
		/** Records one finished request (counters + log entry), unless a reset came since it entered. */
		record(entry, epoch) {
			if (epoch !== r.epoch) return;
			r.counts[entry.route] = (r.counts[entry.route] || 0) + 1;
			const code = String(entry.status);
			r.status[code] = (r.status[code] || 0) + 1;
			r.total += 1;
			const index = (r.logStart + r.logSize) % REQUEST_LOG_LIMIT;
			r.log[index] = entry;
			if (r.logSize < REQUEST_LOG_LIMIT) r.logSize += 1;
			else r.logStart = (r.logStart + 1) % REQUEST_LOG_LIMIT;
		},
		stats() {
			return {
				counts: { ...r.counts },
				status: { ...r.status },
				maxConcurrent: r.maxConcurrent,
				inFlight: r.inFlight,
				total: r.total,
			};
		},
		/** Log entries in arrival order, optionally only those of one route key. */
		requests(route) {
			const out = [];
			for (let i = 0; i < r.logSize; i += 1) {
				const e = r.log[(r.logStart + i) % REQUEST_LOG_LIMIT];
				if (!route || e.route === route) out.push(e);
			}
			// Log entries are appended when answered; present them in arrival order.
			return out.sort((a, b) => a.seq - b.seq);
		},
	};
}

module.exports = { createRecorder, redactHeaders, loggableBody };

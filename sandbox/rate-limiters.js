'use strict';

// The rate limiters that gateways put in front of APIs, one quota (`requestsPerSecond`) counted four
// ways. The emulator answers with one (config `rateLimit.kind`); the pacer's model
// (test/helpers/shared-quota-simulation.ts) runs against the same code.
//
// - sliding: at most `max` requests in any `windowMs` (max = requestsPerSecond x windowMs / 1000);
// - fixed: at most `max` in each calendar window (windows start at whole multiples of windowMs);
// - bucket: a token bucket of `burst` tokens (default: one second's quota), refilled at requestsPerSecond,
//   full at the start: a burst of `burst` goes through at once.
// countRefused: a refused request counts as well (sliding: it takes a place in the window; bucket: it
// takes a token, the bucket going into debt down to -burst). A fixed window counts the same either way:
// a request is refused only once the window is full, and then every request until it ends is.

const KINDS = Object.freeze(['sliding', 'fixed', 'bucket']);
/** What a `rateLimit` config leaves out (config.js fills them in; the model passes bare configs). */
const DEFAULTS = Object.freeze({ windowMs: 1000, kind: 'sliding', countRefused: false });

/** A sliding window of `windowMs`: admits while fewer than `max` counted requests are inside it. */
function slidingWindow(max, windowMs, countRefused) {
	let times = [];
	let head = 0;
	return (nowMs) => {
		while (head < times.length && times[head] <= nowMs - windowMs) head += 1;
		if (head > 1024 && head * 2 > times.length) {
			times = times.slice(head);
			head = 0;
		}
		const full = times.length - head >= max;
		const retryAfterMs = full ? times[head] + windowMs - nowMs : 0;
		if (!full || countRefused) times.push(nowMs);
		return full ? retryAfterMs : undefined;
	};
}

/** Calendar windows of `windowMs`: admits the first `max` requests of each. */
function fixedWindow(max, windowMs) {
	let windowStart = Number.NEGATIVE_INFINITY;
	let count = 0;
	return (nowMs) => {
		const start = Math.floor(nowMs / windowMs) * windowMs;
		if (start !== windowStart) {
			windowStart = start;
			count = 0;
		}
		if (count >= max) return start + windowMs - nowMs;
		count += 1;
		return undefined;
	};
}

/** A token bucket: `burst` tokens, `perSecond` added each second. */
function tokenBucket(perSecond, burst, countRefused) {
	let level = burst;
	let lastMs;
	return (nowMs) => {
		if (lastMs !== undefined) level = Math.min(burst, level + ((nowMs - lastMs) * perSecond) / 1000);
		lastMs = nowMs;
		if (level >= 1) {
			level -= 1;
			return undefined;
		}
		if (countRefused) level = Math.max(-burst, level - 1);
		return ((1 - level) * 1000) / perSecond;
	};
}

/**
 * A limiter for a normalised `rateLimit` config: `take(nowMs)` is undefined when the request is
 * admitted, else the Retry-After to answer, in whole seconds (rounded up, at least 1).
 */
function createRateLimiter(limit) {
	const { requestsPerSecond, windowMs = DEFAULTS.windowMs, kind = DEFAULTS.kind, countRefused = DEFAULTS.countRefused } = limit;
	const max = Math.max(1, Math.floor((requestsPerSecond * windowMs) / 1000));
	const waitMs =
		kind === 'fixed'
			? fixedWindow(max, windowMs)
			: kind === 'bucket'
				? tokenBucket(requestsPerSecond, limit.burst ?? Math.max(1, Math.floor(requestsPerSecond)), countRefused)
				: slidingWindow(max, windowMs, countRefused);
	return {
		take(nowMs) {
			const ms = waitMs(nowMs);
			return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));
		},
	};
}

module.exports = { DEFAULTS, KINDS, createRateLimiter };

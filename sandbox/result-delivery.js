'use strict';

// Delivers signed results to the URL agreed with the provider, as the provider does: answered 2xx
// within 10 s or sent again, up to 6 more times over about 24 hours. Keeps every delivery's
// attempts (and its bytes, for replays) until reset.

const crypto = require('node:crypto');

const { PROVIDER_USER_AGENT, sign } = require('./signed-results');
const { postBytes } = require('./webhook');

/** The provider's waits before its resends: about 10 s, 100 s, 1,000 s, 10,000 s, then the rest of 24 h in two. */
const RETRY_DELAYS_S = [10, 100, 1000, 10000, 37645, 37645];
/** Deliveries kept (with their bytes, up to 5 MB each); the oldest go first. */
const KEPT_DELIVERIES = 50;
/** Answers longer than this are cut in the attempt log. */
const ANSWER_TEXT_LIMIT = 2000;

function createResultDeliveries() {
	const deliveries = new Map(); // id -> {record, bytes, headers}
	const waits = new Set(); // pending retry waits: {timer, resolve}
	let generation = 0;

	/** Waits `ms` unless reset comes first; resolves true when the wait ran out. */
	function wait(ms) {
		return new Promise((resolve) => {
			const entry = { resolve };
			entry.timer = setTimeout(() => {
				waits.delete(entry);
				resolve(true);
			}, ms);
			entry.timer.unref?.();
			waits.add(entry);
		});
	}

	function keep(id, entry) {
		deliveries.set(id, entry);
		while (deliveries.size > KEPT_DELIVERIES) deliveries.delete(deliveries.keys().next().value);
	}

	const shortAnswer = (body) => {
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		return text !== undefined && text.length > ANSWER_TEXT_LIMIT ? `${text.slice(0, ANSWER_TEXT_LIMIT)}...` : body;
	};

	/**
	 * Signs and POSTs `bytes` to target.url; on a non-2xx answer, a network error or no answer within
	 * answerTimeoutMs, sends it again after RETRY_DELAYS_S x timeScale, at most `retries` times.
	 * Returns {record, finished} at once; `finished` resolves when it was delivered or given up.
	 */
	function start(target, { kind, bytes, contentType, hexCase }, { timeScale, answerTimeoutMs, retries }) {
		const id = crypto.randomUUID();
		const signature = sign(bytes, target.signingSecret, hexCase);
		const headers = { 'Content-Type': contentType, Signature: signature, 'User-Agent': PROVIDER_USER_AGENT };
		const record = {
			id,
			kind,
			url: target.url,
			contentType,
			size: bytes.length,
			sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
			signature,
			plannedDelaysMs: RETRY_DELAYS_S.slice(0, retries).map((s) => Math.round(s * 1000 * timeScale)),
			attempts: [],
			delivered: false,
			done: false,
			createdAt: new Date().toISOString(),
		};
		keep(id, { record, bytes, headers });
		const mine = generation;
		const finished = (async () => {
			for (let attempt = 0; attempt <= retries; attempt++) {
				if (attempt > 0 && !(await wait(record.plannedDelaysMs[attempt - 1]))) break;
				if (mine !== generation) break;
				const at = new Date().toISOString();
				const res = await postBytes(target.url, bytes, headers, answerTimeoutMs);
				record.attempts.push({ attempt, at, status: res.status, ms: res.ms, answer: shortAnswer(res.body), ...(res.error ? { error: res.error } : {}) });
				if (res.delivered) {
					record.delivered = true;
					break;
				}
			}
			record.done = true;
			return record;
		})();
		return { record, finished };
	}

	/** Sends a kept delivery's exact bytes and headers again, `copies` times, one after another or at once. */
	async function replay(id, { copies, atOnce, answerTimeoutMs }) {
		const entry = deliveries.get(id);
		if (!entry) return null;
		const send = async () => {
			const res = await postBytes(entry.record.url, entry.bytes, entry.headers, answerTimeoutMs);
			return { status: res.status, answer: shortAnswer(res.body), ...(res.error ? { error: res.error } : {}) };
		};
		if (atOnce) return await Promise.all(Array.from({ length: copies }, send));
		const answers = [];
		for (let i = 0; i < copies; i++) answers.push(await send());
		return answers;
	}

	return {
		start,
		replay,
		get: (id) => deliveries.get(id)?.record ?? null,
		/** Forgets every delivery and ends the pending retries. */
		reset() {
			generation += 1;
			for (const entry of waits) {
				clearTimeout(entry.timer);
				entry.resolve(false);
			}
			waits.clear();
			deliveries.clear();
		},
	};
}

module.exports = { createResultDeliveries, RETRY_DELAYS_S };

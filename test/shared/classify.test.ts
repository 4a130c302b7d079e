/**
 * What happens after one sending (nodes/shared/transport/classify.ts), one row per case: what came
 * back, the sendings so far, the operation's rules -> the verdict, what the pacer learns and whether
 * the request may go out again. Pure: no emulator, no n8n, no clock (jitter 0, a fixed now).
 * The HTTP contract itself (redirects, trickling and huge bodies, storms, cut connections, echoed
 * secrets) stays in request-path.contract.test.ts.
 */
import type { ApiResponse, ResponseExpectation } from '../../nodes/shared/operation/operation-types';
import { type TransmitResult, type Sendings, classify, MAX_TIMEOUT_RETRIES, type Pace, type SendRules, type Verdict } from '../../nodes/shared/transport/classify';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const JSON_TYPE = { 'content-type': 'application/json' };

const response = (statusCode: number, body: unknown = { status: true, data: { id: 1 } }, headers: ApiResponse['headers'] = JSON_TYPE): TransmitResult => ({ kind: 'response', response: { statusCode, headers, body } });
const html = (statusCode: number): TransmitResult => response(statusCode, '<html>maintenance</html>', { 'content-type': 'text/html' });
const network = (code: string | undefined, timedOut = false): TransmitResult => ({ kind: 'noAnswer', network: { ...(code ? { code } : {}), message: `connect ${code ?? 'failed'}` }, timedOut });
const redirect: TransmitResult = { kind: 'refused', statusCode: 307, message: 'a redirect (HTTP 307 to https://elsewhere.example), which is not followed', redirect: true };
const tooLarge: TransmitResult = { kind: 'refused', statusCode: 200, message: 'an answer larger than the limit of 64 MiB (HTTP 200), which was not read further', redirect: false };

/** The wrong-code answer Check OTP takes as its result. */
const wrongCode = (statusCode: number, body: unknown) => statusCode === 400 && (body as { error?: string })?.error === 'Invalid OTP';

interface Row {
	answer: TransmitResult;
	/** Sendings so far, this one included (1 = the first). */
	sent?: number;
	timeouts?: number;
	renewed?: boolean;
	cancelled?: boolean;
	repeatable: boolean;
	acceptsAnswer?: SendRules['acceptsAnswer'];
	expects?: ResponseExpectation;
	next: Verdict['next'];
	/** For `fail`: the failure's kind. For `retry`: the pause in ms. */
	then?: string | number;
	pace: Pace;
	again: boolean;
}

const READ = { repeatable: true };
const MONEY = { repeatable: false };
const DELIVERED: Pace = { delivered: true };
const OVERLOADED: Pace = { overloaded: true };
const NOTHING: Pace = {};

// backoffMs(sent, jitter 0): 250 ms after the 1st sending, 500 after the 2nd, 1,000 after the 3rd.
const rows: Array<[string, Row]> = [
	// 2xx
	['200 JSON, a read', { answer: response(200), ...READ, next: 'ok', pace: DELIVERED, again: true }],
	['200 JSON, a deposit: remembered for Retry On Fail', { answer: response(200), ...MONEY, next: 'ok', pace: DELIVERED, again: false }],
	['200 HTML, a read: unusable, may be asked again', { answer: html(200), ...READ, next: 'fail', then: 'unusableAnswer', pace: DELIVERED, again: true }],
	['200 HTML, a deposit: unusable, may have been carried out', { answer: html(200), ...MONEY, next: 'fail', then: 'unusableAnswer', pace: DELIVERED, again: false }],
	['200 empty where "nothing" is documented', { answer: response(200, ''), ...READ, expects: { body: 'nothing' }, next: 'ok', pace: DELIVERED, again: true }],
	['200 without the expected referenceId', { answer: response(200, { status: true, data: {} }), ...READ, expects: { oneOf: ['referenceId'] }, next: 'fail', then: 'unusableAnswer', pace: DELIVERED, again: true }],
	// 429: refused before acting, resent whatever the operation, waited out with the pacer
	['429 with Retry-After 2, a read', { answer: response(429, {}, { 'retry-after': '2' }), ...READ, next: 'retry', then: 2000, pace: { rateLimitedMs: 2000 }, again: true }],
	['429 without Retry-After, a deposit', { answer: response(429, {}), ...MONEY, next: 'retry', then: 250, pace: { rateLimitedMs: 250 }, again: true }],
	['429 with a Retry-After date 3 s ahead', { answer: response(429, {}, { 'retry-after': new Date(NOW + 3000).toUTCString() }), ...READ, next: 'retry', then: 3000, pace: { rateLimitedMs: 3000 }, again: true }],
	['429 after Max Retries (3) retries', { answer: response(429, {}), sent: 4, ...READ, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	// 503: may come after the API acted, so only reads repeat it
	['503, a read, 1st sending', { answer: response(503, {}), ...READ, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['503, a read, 3rd sending', { answer: response(503, {}), sent: 3, ...READ, next: 'retry', then: 1000, pace: OVERLOADED, again: true }],
	['503, a read, after Max Retries', { answer: response(503, {}), sent: 4, ...READ, next: 'fail', then: 'status', pace: OVERLOADED, again: true }],
	['503, a deposit: sent once', { answer: response(503, {}), ...MONEY, next: 'fail', then: 'status', pace: OVERLOADED, again: false }],
	// 401: not processed, the token is renewed once
	['401, a read', { answer: response(401, {}), ...READ, next: 'renewToken', pace: NOTHING, again: true }],
	['401, a deposit', { answer: response(401, {}), ...MONEY, next: 'renewToken', pace: NOTHING, again: true }],
	['401 after a renewed token', { answer: response(401, {}), renewed: true, ...MONEY, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	// other refusals and server errors: never retried
	['400, a deposit: refused, not carried out', { answer: response(400, { error: 'bad iban' }), ...MONEY, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	['404, a read', { answer: response(404, {}), ...READ, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	['500, a read', { answer: response(500, {}), ...READ, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	['500, a deposit: may have been carried out', { answer: response(500, {}), ...MONEY, next: 'fail', then: 'status', pace: NOTHING, again: false }],
	// a refusal the operation takes as its answer (Check OTP's wrong code)
	['400 "Invalid OTP" on Check OTP: its answer', { answer: response(400, { error: 'Invalid OTP' }), ...MONEY, acceptsAnswer: wrongCode, next: 'accepted', pace: DELIVERED, again: false }],
	['400 of another kind on Check OTP', { answer: response(400, { error: 'expired' }), ...MONEY, acceptsAnswer: wrongCode, next: 'fail', then: 'status', pace: NOTHING, again: true }],
	// no answer: only what never reached the API goes out again for money
	['ECONNREFUSED, a deposit: never reached the API', { answer: network('ECONNREFUSED'), ...MONEY, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['ENOTFOUND, a deposit', { answer: network('ENOTFOUND'), ...MONEY, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['CERT_HAS_EXPIRED, a deposit', { answer: network('CERT_HAS_EXPIRED'), ...MONEY, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['ECONNREFUSED, a deposit, after Max Retries', { answer: network('ECONNREFUSED'), sent: 4, ...MONEY, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: true }],
	['ECONNRESET, a deposit: cut after sending', { answer: network('ECONNRESET'), ...MONEY, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: false }],
	['no code, a deposit', { answer: network(undefined), ...MONEY, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: false }],
	['ECONNRESET, a read', { answer: network('ECONNRESET'), ...READ, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['ECONNRESET, a read, after Max Retries', { answer: network('ECONNRESET'), sent: 4, ...READ, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: true }],
	// timeouts: a read is tried once more, however many retries are allowed
	['timeout, a read, the 1st', { answer: network('ETIMEDOUT', true), timeouts: 1, ...READ, next: 'retry', then: 250, pace: OVERLOADED, again: true }],
	['timeout, a read, the 2nd', { answer: network('ETIMEDOUT', true), sent: 2, timeouts: MAX_TIMEOUT_RETRIES + 1, ...READ, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: true }],
	['timeout, a deposit', { answer: network('ETIMEDOUT', true), timeouts: 1, ...MONEY, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: false }],
	// answers never used: the same when sent again
	['a redirect, a read', { answer: redirect, ...READ, next: 'fail', then: 'refusedAnswer', pace: NOTHING, again: true }],
	['a redirect, a deposit', { answer: redirect, ...MONEY, next: 'fail', then: 'refusedAnswer', pace: NOTHING, again: false }],
	['an answer over the cap, a deposit', { answer: tooLarge, ...MONEY, next: 'fail', then: 'refusedAnswer', pace: NOTHING, again: false }],
	// a stopped execution: nothing more is sent, but the fate of money already on the wire is reported
	['stopped, a read answered 200', { answer: response(200), cancelled: true, ...READ, next: 'cancelled', pace: NOTHING, again: true }],
	['stopped, a deposit answered 200: its receipt is reported', { answer: response(200), cancelled: true, ...MONEY, next: 'ok', pace: DELIVERED, again: false }],
	['stopped, a deposit answered 429', { answer: response(429, {}), cancelled: true, ...MONEY, next: 'cancelled', pace: NOTHING, again: true }],
	['stopped, a deposit cut after sending', { answer: network('ECONNRESET'), cancelled: true, ...MONEY, next: 'fail', then: 'noAnswer', pace: OVERLOADED, again: false }],
	['stopped, a read cut by the stop', { answer: network('ECONNRESET'), cancelled: true, ...READ, next: 'cancelled', pace: NOTHING, again: true }],
];

describe('classify: what happens after one sending', () => {
	it.each(rows)('%s', (_, row) => {
		const sendings: Sendings = { sent: row.sent ?? 1, timeouts: row.timeouts ?? 0, renewed: row.renewed ?? false, cancelled: row.cancelled ?? false, now: NOW, jitter: 0 };
		const rules: SendRules = { repeatable: row.repeatable, maxRetries: 3, acceptsAnswer: row.acceptsAnswer, expects: row.expects };
		const verdict = classify(row.answer, sendings, rules);
		expect(verdict.next).toBe(row.next);
		expect(verdict.pace).toEqual(row.pace);
		expect(verdict.mayGoOutAgain).toBe(row.again);
		if (verdict.next === 'fail') expect(verdict.failure.kind).toBe(row.then);
		if (verdict.next === 'retry') expect(verdict.afterMs).toBe(row.then);
	});

	it('an unusable answer of money keeps the answer itself for the receipt; a read keeps none', () => {
		const money = classify(html(200), { sent: 1, timeouts: 0, renewed: false, cancelled: false, now: NOW, jitter: 0 }, { repeatable: false, maxRetries: 3 });
		const read = classify(html(200), { sent: 1, timeouts: 0, renewed: false, cancelled: false, now: NOW, jitter: 0 }, { repeatable: true, maxRetries: 3 });
		expect(money).toMatchObject({ next: 'fail', failure: { kind: 'unusableAnswer', answer: '<html>maintenance</html>', arrived: 'text/html, starting "<html>maintenance</html>"' } });
		expect(read).toMatchObject({ next: 'fail', failure: { kind: 'unusableAnswer', expected: 'JSON' } });
		expect(read.next === 'fail' && 'answer' in read.failure).toBe(false);
	});

	it('a trusted answer is returned with its checked body (a blank one as "")', () => {
		const verdict = classify(response(200, '  '), { sent: 1, timeouts: 0, renewed: false, cancelled: false, now: NOW, jitter: 0 }, { repeatable: true, maxRetries: 3, expects: { body: 'nothing' } });
		expect(verdict).toMatchObject({ next: 'ok', response: { statusCode: 200, body: '' } });
	});
});

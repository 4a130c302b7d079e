/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, never published: n8n's rules for node runtime code do not apply */
import type { INodeParameters } from 'n8n-workflow';

import { backoffMs, retryAfterMs } from '../../nodes/shared/transport/classify';
import { MAX_TIMER_MS, timerMs, wait } from '../../nodes/shared/transport/wait';
import { propertyOf, resourceRun, useSandbox } from '../helpers/sandbox';

/** Max Requests per Second and Timeout become timer delays: out of bounds they would overflow Node's timers to 1 ms. */
describe('bounds of Max Requests per Second and Timeout', () => {
	const sandbox = useSandbox();
	const runAml = resourceRun(sandbox, 'aml');
	const check = async (options: Record<string, unknown>, continueOnFail = false, names = ['Jane Doe', 'John Doe']) =>
		await runAml({ operation: 'checkIndividual', name: '={{ $json.name }}', options: options as INodeParameters }, {
			input: names.map((name) => ({ json: { name } })),
			continueOnFail,
		});

	it.each([
		// Every bound, value by value, is a row of readSettings in read-values.test.ts; here the run itself.
		[{ maxRequestsPerSecond: '={{ 0.0000001 }}' }, /Max Requests per Second \(maxRequestsPerSecond\) must be 0 \(no known quota\) or a number from 0\.01 to 1000, got 1e-7 \(item 1\)/],
		[{ timeoutSeconds: '={{ 3000000 }}' }, /Timeout \(Seconds\) \(timeoutSeconds\) must be a number from 0\.1 to 600, got 3000000 \(item 1\)/],
	])('an expression giving %j is refused before anything is sent, with Continue On Fail too', async (options, message) => {
		for (const continueOnFail of [false, true]) {
			const result = await check(options, continueOnFail);
			expect(result.error?.message).toMatch(message);
			expect(await sandbox().stats()).toMatchObject({ total: 0 });
		}
	});

	it('the editor shows the bounds (minValue and maxValue of the properties)', () => {
		const options = propertyOf('aml', 'checkIndividual', 'options');
		const byName = Object.fromEntries(((options.options ?? []) as Array<{ name: string; typeOptions?: object; description?: string }>).map((o) => [o.name, o]));
		expect(byName.maxRequestsPerSecond.typeOptions).toMatchObject({ minValue: 0, maxValue: 1000 });
		expect(byName.maxRequestsPerSecond.description).toMatch(/Must be 0 \(no known quota\) or a number from 0\.01 to 1000\.$/);
		expect(byName.timeoutSeconds.typeOptions).toMatchObject({ minValue: 0.1, maxValue: 600 });
	});
});

describe('waits never overflow to 1 ms', () => {
	it('a Retry-After of 10^10 s, in seconds or as a date, waits at most 120 s', () => {
		expect(retryAfterMs({ 'retry-after': '10000000000' })).toBe(120_000);
		expect(retryAfterMs({ 'retry-after': new Date(8.64e15).toUTCString() })).toBe(120_000);
	});

	it('a delay beyond 2^31-1 ms is kept at 2^31-1 ms, not run after 1 ms', async () => {
		expect(timerMs(3e9)).toBe(MAX_TIMER_MS);
		expect(timerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
		expect(timerMs(-5)).toBe(0);
		expect(timerMs(Number.NaN)).toBe(0);
		const cancel = new AbortController();
		let ended = false;
		const long = wait(3e9, cancel.signal).then(
			() => (ended = true),
			() => undefined,
		);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(ended).toBe(false);
		cancel.abort();
		await long;
	});
});

describe('retry timing', () => {
	it('reads Retry-After as seconds or an HTTP date', () => {
		expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
		expect(retryAfterMs({ 'retry-after': '0.5' })).toBe(500);
		const inThree = new Date(Date.now() + 3000).toUTCString();
		expect(retryAfterMs({ 'retry-after': inThree })).toBeGreaterThan(1000);
		expect(retryAfterMs({})).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
	});

	it('backs off exponentially with jitter, capped', () => {
		for (let attempt = 1; attempt <= 12; attempt++) {
			const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
			const wait = backoffMs(attempt);
			expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
			expect(wait).toBeLessThanOrEqual(ceiling);
		}
	});
});

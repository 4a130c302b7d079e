import axios from 'axios';
import { useSandbox } from '../helpers/sandbox';
import { type RateLimiterKind, createRateLimiter } from '../helpers/shared-quota-simulation';

// The emulator's limiter kinds (sandbox/rate-limiters.js): the pacer's model and the bench measure the
// pacer against them, so each must count the way the gateway it stands for does.

/** The answers to requests at these times: 'ok' or the Retry-After in seconds. */
const answers = (limit: RateLimiterKind, times: number[]) => {
	const limiter = createRateLimiter({ requestsPerSecond: 2, ...limit });
	return times.map((t) => limiter.take(t) ?? 'ok');
};

describe('the emulator rate limiters', () => {
	it('sliding: at most the quota in any second; refused requests take no place unless counted', () => {
		expect(answers({ kind: 'sliding' }, [0, 500, 900, 1001, 1400, 1600])).toEqual(['ok', 'ok', 1, 'ok', 1, 'ok']);
		// Counted, the refusal at 900 holds a place until 1900: 1001 is refused, and so is every request
		// that keeps coming meanwhile.
		expect(answers({ kind: 'sliding', countRefused: true }, [0, 500, 900, 1001, 1400, 1600])).toEqual(['ok', 'ok', 1, 1, 1, 1]);
	});

	it('fixed: the quota per calendar second, a burst across its edge allowed', () => {
		expect(answers({ kind: 'fixed' }, [900, 950, 990, 1000, 1010, 1020])).toEqual(['ok', 'ok', 1, 'ok', 'ok', 1]);
		expect(answers({ kind: 'fixed', countRefused: true }, [900, 950, 990, 1000, 1010, 1020])).toEqual(['ok', 'ok', 1, 'ok', 'ok', 1]);
	});

	it('bucket: a full bucket lets its burst through at once, then the refill rate', () => {
		expect(answers({ kind: 'bucket', burst: 4 }, [0, 1, 2, 3, 4, 600, 700])).toEqual(['ok', 'ok', 'ok', 'ok', 1, 'ok', 1]);
		// Counted, each refusal takes a token: after four refusals the bucket owes 2 tokens (its floor),
		// and the refill of a second (2 tokens) does not pay it back.
		expect(answers({ kind: 'bucket', burst: 2, countRefused: true }, [0, 1, 2, 3, 4, 5, 1005])).toEqual(['ok', 'ok', 1, 2, 2, 2, 1]);
		expect(answers({ kind: 'bucket', burst: 2 }, [0, 1, 2, 3, 4, 5, 1005])).toEqual(['ok', 'ok', 1, 1, 1, 1, 'ok']);
	});

	describe('over HTTP', () => {
		const emulator = useSandbox();

		it('answers 429 with the kind configured, and refuses a kind it does not know', async () => {
			const { control, baseUrl, token } = emulator();
			const set = await control.post('/config', { rateLimit: { requestsPerSecond: 1, kind: 'bucket', burst: 2 } });
			expect(set.data.rateLimit).toEqual({ requestsPerSecond: 1, windowMs: 1000, kind: 'bucket', countRefused: false, burst: 2 });
			const headers = { Authorization: `Bearer ${await token()}` };
			const answers: Array<[number, unknown]> = [];
			for (let i = 0; i < 3; i++) {
				const answer = await axios.post(`${baseUrl}/aml/checkIndividual`, { name: 'Jane Doe' }, { headers, validateStatus: () => true });
				answers.push([answer.status, answer.headers['retry-after']]);
			}
			expect(answers).toEqual([[200, undefined], [200, undefined], [429, '1']]);
			const refused = await control.post('/config', { rateLimit: { requestsPerSecond: 1, kind: 'leaky' } });
			expect([refused.status, refused.data.message]).toEqual([400, expect.stringContaining('rateLimit.kind must be one of sliding, fixed, bucket')]);
		});
	});
});

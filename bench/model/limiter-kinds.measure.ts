/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code, never published: n8n's rules for node runtime code do not apply */
import { type RateLimiterKind, customerBook, simulateSharedQuota } from '../../test/helpers/shared-quota-simulation';

// Run alone (`npx jest --config bench/model/jest.config.js bench/model/limiter-kinds.measure.ts`): issue 58's
// cases against each limiter kind of sandbox/rate-limiters.js, three seeds each, simulated time. It prints
// kind x case x seed: the share answered 429 (count) and the time against N/rate.
const latency = { latencyMs: 50, latencySpreadMs: 40 };
const kinds: Array<[string, RateLimiterKind]> = [
	['sliding', { kind: 'sliding' }],
	['sliding, refused counted', { kind: 'sliding', countRefused: true }],
	['fixed', { kind: 'fixed' }],
	['bucket', { kind: 'bucket' }],
	['bucket, refused counted', { kind: 'bucket', countRefused: true }],
];
const cases = [
	['book 10,000 at 50/s, 1 worker', customerBook(1)],
	['book 10,000 at 50/s, 2 workers', customerBook(2)],
	['20 x 10 at 20/s, 2 workers', { quota: 20, processes: 2, concurrency: 5, executions: Array.from({ length: 20 }, () => 10) }],
] as const;

describe('the pacer against each limiter kind (simulated)', () => {
	const grid = kinds.flatMap(([kindName, limiter]) => cases.flatMap(([caseName, scenario]) => [1, 2, 3].map((seed) => ({ kindName, limiter, caseName, scenario, seed }))));
	it.each(grid)('$kindName: $caseName (seed $seed)', async ({ kindName, limiter, caseName, scenario, seed }) => {
		const outcome = await simulateSharedQuota({ ...scenario, executions: [...scenario.executions], limiter, seed, ...latency });
		process.stdout.write(`| ${kindName} | ${caseName} | ${seed} | ${((100 * outcome.rateLimited) / outcome.sent).toFixed(2)} % (${outcome.rateLimited}) | ${outcome.ofIdeal.toFixed(3)}x |\n`);
		expect(outcome.failed).toBe(0);
	});
});

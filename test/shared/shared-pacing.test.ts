import { resetPacers } from '../../nodes/shared/transport/pacing';
import { items, resourceRun, useSandbox } from '../helpers/sandbox';

const emulator = useSandbox();
const runKyb = resourceRun(emulator, 'kyb');
const names = (run: string, n: number) => items(...Array.from({ length: n }, (_, i) => ({ name: `${run} ${i}` })));
const search = { operation: 'search', name: '={{ $json.name }}' };

beforeEach(() => resetPacers());

describe('pacing shared by concurrent runs of one credential', () => {
	it('Max Requests per Second is one budget for all runs in the process, not one per run', async () => {
		// A quota of 20 requests in any 2 s: a request delayed on a busy machine does not bunch the count.
		await emulator().configure({ rateLimit: { requestsPerSecond: 10, windowMs: 2000 } });
		const options = { options: { maxRequestsPerSecond: 6, maxConcurrentRequests: 5 } };
		const runs = await Promise.all(['A', 'B'].map((run) => runKyb({ ...search, ...options }, { input: names(run, 12) })));
		for (const { error } of runs) expect(error).toBeUndefined();
		const stats = (await emulator().stats()) as { status: Record<string, number> };
		expect(stats.status['200']).toBe(24 + 1); // + one POST /auth
		// Two runs at 6 req/s each would send all 24 within 2 s, over the quota of 20; shared, about 12.
		expect(stats.status['429'] ?? 0).toBe(0);
	});

	it('a 429 seen by one run slows the other: three unthrottled runs learn the quota together', async () => {
		await emulator().configure({ rateLimit: { requestsPerSecond: 10 } });
		const runs = await Promise.all(['A', 'B', 'C'].map((run) => runKyb(search, { input: names(run, 15) })));
		for (const { error } of runs) expect(error).toBeUndefined();
		const stats = (await emulator().stats()) as { status: Record<string, number> };
		expect(stats.status['200']).toBe(45 + 1); // + one POST /auth
		// The first burst (3 runs x 5 concurrent) overshoots; after that the shared pace holds.
		// Measured: 15 shared, 23 with one throttle per run (the code before pacing.ts).
		expect(stats.status['429'] ?? 0).toBeLessThan(20);
	});

	it('twenty runs starting at once learn the quota from a few 429s (the in-flight window), not from one per request in flight', async () => {
		await emulator().configure({ rateLimit: { requestsPerSecond: 40 }, latencyMs: 50 });
		const runs = await Promise.all(Array.from({ length: 20 }, (_, r) => runKyb(search, { input: names(`R${r}`, 10) })));
		for (const { error } of runs) expect(error).toBeUndefined();
		const stats = (await emulator().stats()) as { status: Record<string, number> };
		expect(stats.status['200']).toBe(200 + 1); // + one POST /auth
		// 20 runs x 5 concurrent requests put 100 in flight at once: 100 x 429 without the window, 13 with it.
		expect(stats.status['429'] ?? 0).toBeLessThanOrEqual(20);
	});
});

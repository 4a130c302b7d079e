import { createHash } from 'node:crypto';

import { bodyHash, canonicalJson } from '../../nodes/shared/canonical-json';
import { claimDelivery, forgetDeliveries, MAX_REMEMBERED_DELIVERIES } from '../../nodes/shared/delivery-memory';

/** {"a":{"a":...leaf}} nested `depth` levels, as text (V8's JSON.stringify recurses) ... */
const nestedText = (depth: number, leaf: object) => `${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`;
/** ... and parsed as n8n's body parser would (JSON.parse does not recurse). */
const nested = (depth: number, leaf: object) => JSON.parse(nestedText(depth, leaf)) as object;

describe('canonical JSON and body hash (the "same body" of the webhook triggers)', () => {
	it('sorts keys at every level and matches JSON.stringify otherwise', () => {
		expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null, e: 'x"y', f: [undefined] })).toBe('{"a":null,"b":[1,{"c":2,"d":1}],"e":"x\\"y","f":[null]}');
		expect(canonicalJson([])).toBe('[]');
		expect(canonicalJson({})).toBe('{}');
		expect(canonicalJson('text')).toBe('"text"');
		const value = { z: [{ y: 1, x: [2, 3] }], a: { c: true, b: false } };
		expect(JSON.parse(canonicalJson(value))).toEqual(value);
		expect(bodyHash(value)).toBe(createHash('sha256').update(canonicalJson(value)).digest('hex'));
	});

	it('hashes 10,000 and 100,000 levels without recursion', () => {
		for (const depth of [10_000, 100_000]) {
			const body = nested(depth, { sessionId: 's' });
			expect(canonicalJson(body)).toBe(nestedText(depth, { sessionId: 's' }));
			expect(bodyHash(body)).toMatch(/^[0-9a-f]{64}$/);
			expect(bodyHash(body)).not.toBe(bodyHash(nested(depth, { sessionId: 't' })));
		}
	});
});

describe('delivery memory', () => {
	afterEach(() => forgetDeliveries());

	it('keeps a bounded memory, newest last; a released first copy is forgotten so that its resend starts', () => {
		const now = Date.now();
		let claim = claimDelivery('bounded', 'k0', 600_000, undefined, { now });
		for (let i = 1; i < MAX_REMEMBERED_DELIVERIES + 20; i++) claim = claimDelivery('bounded', `k${i}`, 600_000, undefined, { now: now + i });
		const snapshot = claim.snapshot();
		expect(Object.keys(snapshot)).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(snapshot.k0).toBeUndefined();
		expect(Object.keys(snapshot).at(-1)).toBe(`k${MAX_REMEMBERED_DELIVERIES + 19}`);

		const failed = claimDelivery('released', 'p', 600_000, undefined, { now });
		expect(failed.duplicate).toBe(false);
		failed.release();
		expect(failed.snapshot()).toEqual({});
		expect(claimDelivery('released', 'p', 600_000, undefined, { now: now + 1 }).duplicate).toBe(false);
		expect(claimDelivery('released', 'p', 600_000, undefined, { now: now + 2 }).duplicate).toBe(true);
	});

	it('a delivery with several keys is a duplicate when any of them was seen; all are recorded and released together', () => {
		const now = Date.now();
		expect(claimDelivery('multi', ['result-1', 'body-1'], 600_000, undefined, { now }).duplicate).toBe(false);
		// Same result, other body (e.g. a new timestamp) ...
		expect(claimDelivery('multi', ['result-1', 'body-2'], 600_000, undefined, { now: now + 1 }).duplicate).toBe(true);
		// ... same body, other result key ...
		expect(claimDelivery('multi', ['result-2', 'body-1'], 600_000, undefined, { now: now + 2 }).duplicate).toBe(true);
		// ... neither.
		const fresh = claimDelivery('multi', ['result-3', 'body-3'], 600_000, undefined, { now: now + 3 });
		expect(fresh.duplicate).toBe(false);
		fresh.release();
		expect(Object.keys(fresh.snapshot())).not.toContain('result-3');
		expect(Object.keys(fresh.snapshot())).not.toContain('body-3');
	});

	it('a per-trigger limit bounds the memory instead of the default', () => {
		const now = Date.now();
		let claim = claimDelivery('limited', 'k0', 600_000, undefined, { now, limit: 3 });
		for (let i = 1; i < 10; i++) claim = claimDelivery('limited', `k${i}`, 600_000, undefined, { now: now + i, limit: 3 });
		expect(Object.keys(claim.snapshot())).toEqual(['k7', 'k8', 'k9']);
	});

	it('takes over what static data remembers (after a restart) within the window only', () => {
		const now = Date.now();
		const persisted = { old: now - 700_000, recent: now - 1_000, future: now + 60_000 };
		expect(claimDelivery('restart', 'recent', 600_000, persisted, { now }).duplicate).toBe(true);
		forgetDeliveries();
		expect(claimDelivery('restart', 'old', 600_000, persisted, { now }).duplicate).toBe(false);
		forgetDeliveries();
		expect(claimDelivery('restart', 'future', 600_000, persisted, { now }).duplicate).toBe(false);
	});
});

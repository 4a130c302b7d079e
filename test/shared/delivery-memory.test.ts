/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';

import type { IWebhookFunctions } from 'n8n-workflow';

import { bodyHash, canonicalJson } from '../../nodes/shared/responses/canonical-json';
import { claimDelivery, claimOrWait, forgetDeliveries, PENDING_MAX_MS, keepOrReleaseByResponse } from '../../nodes/shared/delivery/delivery-memory';

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

	it('keeps every key for the whole window, whatever the number of deliveries (2,100 and 50,000), and forgets it after', () => {
		const now = Date.now();
		const day = 25 * 3_600_000;
		for (const count of [2_100, 50_000]) {
			forgetDeliveries();
			for (let i = 0; i < count; i++) {
				const claim = claimDelivery('busy', `k${i}`, day, now + i);
				if (!claim.duplicate) claim.keep();
			}
			expect(claimDelivery('busy', 'k0', day, now + count).duplicate).toBe(true);
			expect(claimDelivery('busy', `k${count - 1}`, day, now + count).duplicate).toBe(true);
		}
		expect(claimDelivery('busy', 'k1', day, now + 1 + day + 1).duplicate).toBe(false);
	});

	it('a released claim is forgotten so that its resend is taken; a kept one stays', () => {
		const now = Date.now();
		const failed = claimDelivery('released', 'p', 600_000, now);
		if (failed.duplicate) throw new Error('first copy');
		failed.release();
		const resend = claimDelivery('released', 'p', 600_000, now + 1);
		expect(resend.duplicate).toBe(false);
		if (!resend.duplicate) resend.keep();
		expect(claimDelivery('released', 'p', 600_000, now + 2).duplicate).toBe(true);
	});

	it('a delivery with several keys is a duplicate when any of them was seen; all are recorded and released together', () => {
		const now = Date.now();
		const first = claimDelivery('multi', ['result-1', 'body-1'], 600_000, now);
		if (first.duplicate) throw new Error('first copy');
		first.keep();
		// Same result, other body (e.g. a new timestamp) ...
		expect(claimDelivery('multi', ['result-1', 'body-2'], 600_000, now + 1).duplicate).toBe(true);
		// ... same body, other result key ...
		expect(claimDelivery('multi', ['result-2', 'body-1'], 600_000, now + 2).duplicate).toBe(true);
		// ... neither.
		const fresh = claimDelivery('multi', ['result-3', 'body-3'], 600_000, now + 3);
		if (fresh.duplicate) throw new Error('new result');
		fresh.release();
		expect(claimDelivery('multi', ['result-3'], 600_000, now + 4).duplicate).toBe(false);
		expect(claimDelivery('multi', ['body-3'], 600_000, now + 5).duplicate).toBe(false);
	});

	it('a copy arriving while the first is unanswered waits for its answer: a duplicate once it was 2xx, taken over once it was not, 503 when none comes', async () => {
		const held = await claimOrWait('pending', 'k', 600_000);
		if (!('claim' in held)) throw new Error('first copy');
		const kept = claimOrWait('pending', 'k', 600_000);
		held.claim.keep();
		expect(await kept).toEqual({ duplicate: true });

		const dropped = await claimOrWait('pending', 'j', 600_000);
		if (!('claim' in dropped)) throw new Error('first copy');
		const takeover = claimOrWait('pending', 'j', 600_000);
		dropped.claim.release();
		expect('claim' in (await takeover)).toBe(true);

		const silent = await claimOrWait('pending', 'i', 600_000);
		expect('claim' in silent).toBe(true);
		expect(await claimOrWait('pending', 'i', 600_000, 50)).toEqual({ undecided: true });
	});

	it('a claim left without any answer for a minute counts as kept: its copies are duplicates, not 503s for ever', () => {
		const now = Date.now();
		expect(claimDelivery('stuck', 'k', 600_000, now).duplicate).toBe(false);
		const meanwhile = claimDelivery('stuck', 'k', 600_000, now + 1_000);
		expect(meanwhile.duplicate && meanwhile.settled).toBeInstanceOf(Promise);
		const later = claimDelivery('stuck', 'k', 600_000, now + PENDING_MAX_MS);
		expect(later).toEqual({ duplicate: true });
	});

	it('settles a claim by the answer n8n sends: 2xx keeps it, 500 drops it, a connection closed before any answer keeps it', () => {
		const answer = (statusCode: number, finished: boolean) => {
			const res = Object.assign(new EventEmitter(), { statusCode, writableFinished: false });
			const context = { getResponseObject: () => res } as unknown as IWebhookFunctions;
			const key = `${statusCode}-${finished}`;
			const claim = claimDelivery('answers', key, 600_000);
			keepOrReleaseByResponse(context, claim);
			if (finished) {
				res.writableFinished = true;
				res.emit('finish');
			}
			res.emit('close');
			return claimDelivery('answers', key, 600_000).duplicate;
		};
		expect(answer(200, true)).toBe(true);
		expect(answer(500, true)).toBe(false);
		expect(answer(503, true)).toBe(false);
		expect(answer(200, false)).toBe(true);
	});
});

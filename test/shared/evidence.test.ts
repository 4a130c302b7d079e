import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { answerOf } from '../../nodes/shared/operation/evidence';
import { PACKAGE_VERSION } from '../../nodes/shared/operation/package-version';
import { SANDBOX_CUSTOMER_ID, actionNode, actionTool, canonicalSha256, useSandbox } from '../helpers/sandbox';

// Evidence beside every answer (CONVENTIONS "Evidence and review"): the sandbox harness checks each
// answer's response hash and that no credential value is in it; here, the rest against what the
// emulator received.

const emulator = useSandbox();
const CHECK = 'POST /aml/checkIndividual';
const aml = { resource: 'aml', operation: 'checkIndividual', name: 'Viktor Sanctioned', dob: '1970-01-15' };

describe('Evidence', () => {
	it('is beside every answer by default: when, where, the hash of the body the API received, the run that asked', async () => {
		const before = Date.now();
		const { items, evidence, error } = await emulator().run(actionNode, aml);
		expect(error).toBeUndefined();
		const [received] = await emulator().requests(CHECK);
		expect(received.body).toEqual({ name: 'Viktor Sanctioned', dob: '1970/01/15' });
		expect(evidence[0]).toEqual({
			requestedAt: expect.any(String),
			respondedAt: expect.any(String),
			endpoint: 'POST /aml/checkIndividual',
			requestSha256: canonicalSha256(received.body),
			responseSha256: canonicalSha256(answerOf(items[0].json)),
			environment: 'sandbox',
			account: createHash('sha256').update(`${emulator().baseUrl}\n${SANDBOX_CUSTOMER_ID}`).digest('hex').slice(0, 16),
			workflowId: expect.any(String),
			executionId: expect.stringMatching(/^harness-/),
			node: 'IDCanopy Umbrella',
			nodeVersion: 1,
			packageVersion: PACKAGE_VERSION,
		});
		expect(Date.parse(evidence[0]!.requestedAt as string)).toBeGreaterThanOrEqual(before - 1000);
	});

	it('names the package version package.json gives', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		expect(PACKAGE_VERSION).toBe((require('../../package.json') as { version: string }).version);
	});

	it('is left out when Include Evidence is off', async () => {
		const { items, evidence } = await emulator().run(actionNode, { ...aml, options: { includeEvidence: false } });
		expect(items).toHaveLength(1);
		expect(evidence).toEqual([undefined]);
	});

	it("hashes a request without the credential's values: the hosted journey's customer ID is cut out first", async () => {
		const { evidence, error } = await emulator().run(actionNode, { resource: 'document', operation: 'startHostedJourney', processName: 'onboarding' });
		expect(error).toBeUndefined();
		const [received] = await emulator().requests('POST /sdk/universal/handshake');
		const body = received.body as IDataObject;
		expect(JSON.stringify(body)).toContain(SANDBOX_CUSTOMER_ID);
		const withoutSecret = JSON.parse(JSON.stringify(body).split(SANDBOX_CUSTOMER_ID).join('[redacted]'));
		expect(evidence[0]!.requestSha256).toBe(canonicalSha256(withoutSecret));
	});

	it("hashes a code check without the code (a 6-digit code's hash would give it away)", async () => {
		const sent = await emulator().run(actionNode, { resource: 'phone', operation: 'sendOtp', method: 'sms', phoneNumber: '436501234567' });
		const referenceId = sent.items[0].json.referenceId as string;
		const [{ code }] = (await emulator().control.get('/phone/messages', { params: { referenceId } })).data as Array<{ code: string }>;
		const { evidence, error } = await emulator().run(actionNode, { resource: 'phone', operation: 'checkOtp', referenceId, securityFactor: code });
		expect(error).toBeUndefined();
		const [received] = await emulator().requests('PATCH /phone-service/verification/:referenceId');
		const body = received.body as IDataObject;
		expect(JSON.stringify(body)).toContain(code);
		expect(evidence[0]!.requestSha256).not.toBe(canonicalSha256(body));
		expect(evidence[0]!.requestSha256).toBe(canonicalSha256(JSON.parse(JSON.stringify(body).split(code).join('[redacted]'))));
	});

	it.each([
		['Simplified', { toolOutput: 'summary' }, undefined],
		['Raw', { toolOutput: 'full' }, expect.objectContaining({ endpoint: 'POST /aml/checkIndividual' })],
		['Selected Fields', { toolOutput: 'fields', toolFields: 'isHit, evidence.requestSha256' }, { requestSha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
	])('reaches an AI model only under Raw or when selected: %s', async (_, output, seen) => {
		const { outputs, error } = await emulator().run(actionTool, { ...aml, ...output });
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.evidence).toEqual(seen);
	});
});

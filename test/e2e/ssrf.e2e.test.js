'use strict';
// n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.x; README "Compatibility") with the nodes:
// a base URL on a private or loopback address is refused before anything reaches it, and allowing
// the address (N8N_SSRF_ALLOWED_IP_RANGES) or the host name (N8N_SSRF_ALLOWED_HOSTNAMES) lets the
// same workflow run. The sandbox emulator listens on 127.0.0.1, a loopback address n8n blocks.
// n8n 1.x has no SSRF protection: the suite runs in 2.x only.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');

const { startSandbox } = require('../../sandbox/server');
const { createInstance, nodeOutput } = require('./lib/instance');
const { defaultLog, freshFetch } = require('./lib/util');
const { chain, manualTrigger, node, sandboxCredential, SANDBOX_CREDENTIAL_REF } = require('./lib/workflows');

const VERSIONS = (process.env.N8N_E2E_VERSIONS || 'v2,v1').split(',').map((v) => v.trim()).filter(Boolean);
const log = (message) => defaultLog(`[ssrf] ${message}`);

const workflow = chain(
	'e2e: AML check with SSRF protection on',
	[
		manualTrigger('Start'),
		node({
			name: 'Screen Person',
			type: 'n8n-nodes-verification-services.verificationAml',
			parameters: { operation: 'checkIndividual', name: 'Viktor Sanctioned', options: {} },
			credentials: SANDBOX_CREDENTIAL_REF,
		}),
	],
	{ id: 'e2eSsrfAmlCheck1' },
);

const PROTECTED = { N8N_SSRF_PROTECTION_ENABLED: 'true' };

describe('SSRF protection with the package', { skip: !VERSIONS.includes('v2') && 'n8n 1.x has no SSRF protection (runs in v2 only)' }, () => {
	let sandbox;
	let instance;
	const apiCalls = async () => (await (await freshFetch(`${sandbox.url}/__control/stats`)).json()).total;

	before(
		async () => {
			sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
			instance = await createInstance('v2', { name: 'ssrf', log });
			// The emulator by name, so that the host name allow-list has a name to match.
			const baseUrl = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
			await instance.importCredentials([sandboxCredential(baseUrl)]);
			await instance.importWorkflows([workflow]);
		},
		{ timeout: 30 * 60 * 1000 },
	);

	after(async () => {
		if (instance) await instance.destroy();
		if (sandbox) await sandbox.close();
	});

	it('refuses a loopback base URL before anything reaches it', async () => {
		const before = await apiCalls();
		const result = await instance.execute(workflow.id, { env: PROTECTED });
		assert.equal(result.ok, false, 'the workflow failed');
		log(`blocked: ${result.errorMessage}`);
		assert.match(String(result.errorMessage), /could not reach|blocked|SSRF|not allowed/i);
		assert.equal(await apiCalls(), before, 'no request reached the emulator, not even the token exchange');
	});

	for (const [label, allow] of [
		['the address range (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32)', { N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32,::1/128' }],
		['the host name (N8N_SSRF_ALLOWED_HOSTNAMES=localhost)', { N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' }],
	]) {
		it(`runs once ${label} is allowed`, async () => {
			const result = await instance.execute(workflow.id, { env: { ...PROTECTED, ...allow } });
			assert.ok(result.ok, `the workflow ran: ${result.errorMessage}`);
			const [screened] = nodeOutput(result, 'Screen Person');
			assert.equal(screened.screeningSummary.isHit, true);
		});
	}
});

'use strict';
// The upload cap of Add Image inside a real n8n (2.40 and 1.123), with binary data kept on disk
// (N8N_DEFAULT_BINARY_DATA_MODE=filesystem): n8n 2.x gives the byte count, n8n 1.x does not, so there
// the file is read counting. A 21 MB file read by n8n's own Read/Write Files node fails its item before
// anything is sent; nothing reaches the API. (In memory, the mode of the jest harness, the execution
// data would carry the whole file: test/nodes/upload-size.test.ts covers that mode.)

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startSandbox } = require('../../sandbox/server');
const { createInstance } = require('./lib/instance');
const { freshFetch, e2eVersions } = require('./lib/util');
const { action, chain, manualTrigger, node, sandboxCredential, SANDBOX_CREDENTIAL_REF } = require('./lib/workflows');

const VERSIONS = e2eVersions();

for (const version of VERSIONS) {
	describe(`n8n ${version}: Add Image refuses a file above 20 MB`, { timeout: 15 * 60 * 1000 }, () => {
		let n8n;
		let server;
		let sandbox;
		let folder;
		let workflowId;

		before(async () => {
			folder = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-cap-'));
			fs.writeFileSync(path.join(folder, 'front.png'), Buffer.alloc(21 * 1024 * 1024, 7));
			sandbox = await startSandbox({ port: 0 });
			n8n = await createInstance(version, { name: 'upload-cap' });
			server = await n8n.startServer({ env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_RESTRICT_FILE_ACCESS_TO: folder } });
			await server.ensureLoggedIn();
			const workflow = chain('e2e: Add Image of a 21 MB file', [
				manualTrigger(),
				node({
					name: 'Read File',
					type: 'n8n-nodes-base.readWriteFile',
					typeVersion: 1,
					parameters: { operation: 'read', fileSelector: path.join(folder, 'front.png'), options: {} },
				}),
				action({
					name: 'Add Image',
					resource: 'document',
					parameters: { operation: 'addImage', journeyId: 'j-1', imageSide: 'front', imageSource: 'binary', binaryPropertyName: 'data' },
					credentials: SANDBOX_CREDENTIAL_REF,
				}),
			]);
			({
				workflowIds: [workflowId],
			} = await server.createCredentialsAndWorkflows({ credentials: [sandboxCredential(sandbox.baseUrl)], workflows: [workflow] }));
		});

		after(async () => {
			await n8n?.destroy();
			await sandbox?.close();
			if (folder) fs.rmSync(folder, { recursive: true, force: true });
		});

		test('the item fails naming the field, the cap and the item; nothing is sent', async () => {
			const errorMessage = (await server.runWorkflow(workflowId, { trigger: 'Manual Trigger' })).data.resultData.error?.message;
			const size = version === 'v1' ? 'more than 20 MB' : '21.0 MB';
			assert.match(
				String(errorMessage),
				new RegExp(`^Input Binary Field \\(binaryPropertyName\\) must name a file of at most 20 MB, got "data" of ${size.replace('.', '\\.')} \\(item 1\\)`),
				`${errorMessage}\n${server.readLog().slice(-2000)}`,
			);
			const { total } = await (await freshFetch(`${sandbox.url}/__control/stats`)).json();
			assert.equal(total, 0, 'nothing reached the API');
		});
	});
}

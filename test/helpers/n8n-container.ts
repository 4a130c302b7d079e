/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * One-time @n8n/di Container setup that n8n-core 2.40 needs before any node context can be built.
 *
 * n8n-core resolves these services lazily through `Container.get(...)` (no constructor injection
 * from our side):
 *  - InstanceSettings  (NodeExecutionContext constructor, Cipher for `Credentials`, webhook signing)
 *  - Logger            (context.logger, ErrorReporter, InstanceSettings)
 *  - ErrorReporter     (WorkflowExecute.reportNodeExecutionError; recorded in `reportedErrors`)
 *  - BinaryDataConfig  (convertBinaryData after every node run)
 *  - BinaryDataService (helpers.getBinaryDataBuffer / prepareBinaryData / setBinaryDataBuffer)
 *  - OutboundHttp      (helpers.httpRequest*, created by the container from its defaults)
 *  - EncryptionKeyProxy (Cipher.encryptV2/decryptV2 behind n8n-core's `Credentials`; new in 2.x,
 *    the CLI plugs in a DB-backed key provider, we plug in the instance key)
 *
 * Everything is the real class; we only point the instance folder at a temp dir (the real
 * InstanceSettings writes `<n8nFolder>/config` with an encryption key), keep the logger silent
 * unless N8N_LOG_LEVEL is set (same for ErrorReporter's log of every node error), and pin binary
 * data to n8n's 'default' (in-memory, base64 inside the item) mode.
 */
import { Logger } from '@n8n/backend-common';
import { GlobalConfig, InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	BinaryDataConfig,
	BinaryDataService,
	Cipher,
	EncryptionKeyProxy,
	ErrorReporter,
	InstanceSettings,
} from 'n8n-core';
import type { KeyInfo } from 'n8n-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let ready = false;
let n8nFolder: string | undefined;

// Jest hands each test file its own `process` copy whose 'exit' never fires, so clean up the
// instance folder after the test file instead (this module is loaded while the file is collected).
if (typeof afterAll === 'function') {
	afterAll(() => {
		if (n8nFolder) rmSync(n8nFolder, { recursive: true, force: true });
	});
}

/** Errors n8n-core handed to its ErrorReporter during this test file (newest last). */
export const reportedErrors: unknown[] = [];

export function ensureN8nContainer(): void {
	if (ready) return;

	n8nFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));

	const instanceSettingsConfig = Container.get(InstanceSettingsConfig);
	// Read-only in the typings; InstanceSettings copies them in its constructor below.
	Object.assign(instanceSettingsConfig, { n8nFolder, userHome: n8nFolder });
	instanceSettingsConfig.encryptionKey = 'n8n-harness-encryption-key';
	instanceSettingsConfig.enforceSettingsFilePermissions = false;

	const globalConfig = Container.get(GlobalConfig);
	if (!process.env.N8N_LOG_LEVEL) globalConfig.logging.level = 'silent';

	// Logger registers itself as n8n-workflow's LoggerProxy when constructed.
	const logger = Container.get(Logger);
	const instanceSettings = new InstanceSettings(instanceSettingsConfig, logger);
	Container.set(InstanceSettings, instanceSettings);

	// The key of an instance without key rotation: the instance key itself, stored as a
	// 'no-prefix' aes-256-cbc descriptor wrapped with the instance key (what Cipher verifies).
	const instanceKey: KeyInfo = {
		id: 'instance',
		value: Container.get(Cipher).encryptDEKWithInstanceKey(instanceSettings.encryptionKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix',
	};
	Container.get(EncryptionKeyProxy).setProvider({
		getActiveKey: async () => instanceKey,
		getKeyById: async (id) => (id === instanceKey.id ? instanceKey : null),
		getLegacyKey: async () => instanceKey,
	});

	// Record what n8n-core reports (the harness uses it to recover error instances); only log it
	// when N8N_LOG_LEVEL is set. `report` is private in the typings.
	const errorReporter = Container.get(ErrorReporter) as unknown as {
		report: (error: unknown, options?: unknown) => void;
	};
	const defaultReport = errorReporter.report.bind(errorReporter);
	errorReporter.report = (error, options) => {
		reportedErrors.push(error);
		if (process.env.N8N_LOG_LEVEL) defaultReport(error, options);
	};

	const binaryDataConfig = Container.get(BinaryDataConfig);
	binaryDataConfig.mode = 'default';
	// Not calling init(): with no storage manager registered BinaryDataService keeps data inline
	// (base64 in `binary[key].data`), which is exactly n8n's 'default' mode.
	Container.get(BinaryDataService);

	ready = true;
}

import { NodeOperationError } from 'n8n-workflow';

import type { RunNodeResult } from './n8n';
import type { Sandbox } from './sandbox';

/**
 * Asserts the run failed validation for `itemIndex` (the message names it and contains every part)
 * and nothing at all reached the emulator, not even a token exchange.
 */
export async function expectValidationError(
	sandbox: Sandbox,
	result: RunNodeResult,
	itemIndex: number,
	...parts: string[]
): Promise<void> {
	expect(result.error).toBeInstanceOf(NodeOperationError);
	const message = result.error!.message;
	for (const part of parts) expect(message).toContain(part);
	expect(message).toContain(`(item ${itemIndex})`);
	expect((result.error as NodeOperationError).description).toContain(`Nothing was sent for item ${itemIndex}`);
	expect(result.items).toHaveLength(0);
	expect((await sandbox.stats()).total).toBe(0);
}

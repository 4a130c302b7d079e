import { NodeOperationError } from 'n8n-workflow';

import type { RunNodeResult } from './n8n';
import type { Sandbox } from './sandbox';

/**
 * Asserts the run failed validation for `itemIndex` (0-based, as n8n's itemIndex; the message and
 * description count from 1 as n8n's UI does), the message contains every part, and nothing at all
 * reached the emulator, not even a token exchange.
 */
export async function expectValidationError(
	sandbox: Pick<Sandbox, 'stats'>,
	result: RunNodeResult,
	itemIndex: number,
	...parts: string[]
): Promise<void> {
	expect(result.error).toBeInstanceOf(NodeOperationError);
	const message = result.error!.message;
	for (const part of parts) expect(message).toContain(part);
	expect(message).toContain(`(item ${itemIndex + 1})`);
	expect((result.error as NodeOperationError).description).toContain(`Nothing was sent for item ${itemIndex + 1}`);
	expect((result.error as NodeOperationError).context.itemIndex).toBe(itemIndex);
	expect(result.items).toHaveLength(0);
	expect((await sandbox.stats()).total).toBe(0);
}

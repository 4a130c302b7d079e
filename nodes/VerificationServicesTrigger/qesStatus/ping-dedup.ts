import { createHash } from 'crypto';

import { bodyHash } from '../../shared/responses/canonical-json';
import { bodyStatus, pingSessionId } from './ping-fields';

export type DuplicateKey = 'body' | 'sessionStatus';

/**
 * What two pings must share to count as the same: the whole body (canonical JSON, so key order and
 * whitespace do not matter), or the session and its status (read as the filter reads them); a ping
 * without both falls back to its whole body. 32 hex chars (128 bits of SHA-256): static data stays small.
 */
export function duplicateKey(body: unknown, mode: DuplicateKey): string {
	if (mode === 'sessionStatus') {
		const session = pingSessionId(body);
		const status = bodyStatus(body);
		if (session !== undefined && status !== undefined) {
			return createHash('sha256')
				.update(JSON.stringify(['sessionStatus', session, status.toLowerCase()]))
				.digest('hex')
				.slice(0, 32);
		}
	}
	return bodyHash(body).slice(0, 32);
}

import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../shared/responses/envelope';

/** The verdict the provider's `globalResult.overall` stands for; any other value needs a person to look. */
const OUTCOMES: Record<string, string> = { OK: 'verified', REVIEW: 'review', NOK: 'notVerified' };

/**
 * `addressVerification`, added beside the response: the outcome to branch on (verified, review,
 * notVerified) from the upper-cased `globalResult.overall`, with the value it came from and the
 * match quality and score. An unknown or missing overall result is `review`, never a verdict.
 */
export function addressVerification(body: unknown): IDataObject {
	const overall = valueAt(body, 'globalResult.overall');
	const matchQuality = valueAt(body, 'matchQuality');
	const score = valueAt(body, 'score');
	return {
		outcome:
			OUTCOMES[
				String(overall ?? '')
					.trim()
					.toUpperCase()
			] ?? 'review',
		overall: overall ?? null,
		matchQuality: matchQuality ?? null,
		score: typeof score === 'number' || typeof score === 'string' ? Number(score) : null,
	};
}

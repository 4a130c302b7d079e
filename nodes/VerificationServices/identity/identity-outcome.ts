import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../shared/responses/envelope';

/**
 * `identityVerification`, added beside the response: the outcome to branch on from the provider's
 * `globalResult.totalScore`: 100 verified, 75 review (a partial match), 50 or less notVerified (no
 * match, failed). A score the provider does not document (60, 90) is `review`.
 */
export function identityVerification(body: unknown): IDataObject {
	const given = valueAt(body, 'globalResult.totalScore');
	const totalScore =
		typeof given === 'number' || (typeof given === 'string' && given.trim() !== '')
			? Number(given)
			: NaN;
	if (Number.isNaN(totalScore)) return { outcome: 'review', totalScore: given ?? null };
	const outcome = totalScore === 100 ? 'verified' : totalScore <= 50 ? 'notVerified' : 'review';
	return { outcome, totalScore };
}

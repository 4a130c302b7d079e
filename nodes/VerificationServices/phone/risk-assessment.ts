import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../shared/responses/envelope';

const RECOMMENDATIONS = ['allow', 'flag', 'block'];

/**
 * The provider's own client reads a missing recommendation from the score (0 to 1000): up to 450
 * allow, up to 600 flag, above block. Used only when the answer gives no recommendation.
 */
function fromScore(score: number): string {
	if (score <= 450) return 'allow';
	return score <= 600 ? 'flag' : 'block';
}

/** A value the answer gives under the current block (`risk.score`) or the oldest generation's name (`riskScore`). */
const riskValue = (body: unknown, name: string) =>
	valueAt(body, `risk.${name}`) ?? valueAt(body, `risk${name[0].toUpperCase()}${name.slice(1)}`);

/**
 * `riskAssessment`, added beside the response: allow, flag or block from the provider's
 * recommendation (lower-cased; an unknown word is flag), else from the score bands; the score and
 * level as given; `basis` says which. Without either, recommendation is null: no verdict is invented.
 */
export function riskAssessment(body: unknown): IDataObject {
	const given = riskValue(body, 'recommendation');
	const rawScore = riskValue(body, 'score');
	const score =
		(typeof rawScore === 'number' || typeof rawScore === 'string') &&
		String(rawScore).trim() !== '' &&
		Number.isFinite(Number(rawScore))
			? Number(rawScore)
			: null;
	const level = riskValue(body, 'level') ?? null;
	const said = typeof given === 'string' ? given.trim().toLowerCase() : '';
	if (said !== '')
		return {
			recommendation: RECOMMENDATIONS.includes(said) ? said : 'flag',
			score,
			level,
			basis: 'recommendation',
		};
	if (score !== null)
		return { recommendation: fromScore(score), score, level, basis: 'scoreBands' };
	return { recommendation: null, score: null, level, basis: 'none' };
}

import type { Rule } from '../shared/operation-types';
import { check, decimal, text } from '../shared/rules';

/** Rules every operation that moves money shares: the amount and its currency. */

/** A positive amount with at most 2 decimals, sent as a decimal string ("1.50"). */
export const amount: Rule = decimal({ maxDecimals: 2, positive: true });

/** Any ISO 4217 code, upper-cased (the dropdown lists common ones; others come by expression). */
export const currency: Rule = text({
	normalize: (value) => value.trim().toUpperCase(),
	checks: [check.pattern(/^[A-Z]{3}$/, 'a three-letter ISO 4217 currency code such as EUR')],
});

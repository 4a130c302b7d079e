import type { Rule, ValueField } from '../../shared/operation/operation-types';
import { check, decimal, text } from '../../shared/fields/rules';

/** What every operation that moves money shares: the amount's rule and the currency field. */

/** A positive amount with at most 2 decimals, sent as a decimal string ("1.50"). */
export const amount: Rule = decimal({ maxDecimals: 2, positive: true });

/** Any ISO 4217 code, upper-cased: the dropdown lists common ones (getCurrencies), others come by expression. */
export const currencyField: ValueField = {
	property: {
		displayName: 'Currency Name or ID',
		name: 'currency',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getCurrencies' },
		default: 'EUR',
		required: true,
		description:
			'Currency of the amount: any ISO 4217 code (lower case is upper-cased). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	rule: text({
		normalize: (value) => value.trim().toUpperCase(),
		checks: [check.pattern(/^[A-Z]{3}$/, 'a three-letter ISO 4217 currency code such as EUR')],
	}),
};

import { boolean, choice, rule, text } from '../../shared/fields';
import { decimalText, withLoadedOptions } from '../../shared/fields-extra';
import type { OperationDefinition } from '../../shared/operation-types';

export const challengeDeposit: OperationDefinition = {
	value: 'challengeDeposit',
	name: 'Challenge Deposit',
	action: 'Send a challenge deposit',
	description:
		'Send a small amount to a bank account to verify its holder; returns the verified IBAN and a name-match score. Moves money: never sent twice for one item.',
	method: 'POST',
	path: '/payments/challenge-deposit',
	// Moves money: a network error after sending is never retried (the transfer may have happened).
	repeatable: false,
	toolDescription:
		"MOVES MONEY: sends a small real deposit to a person's bank account to verify who holds it; returns the verified IBAN, the status (OK or FAIL) and a name-match score. Supply amount (for example 0.01), currency (ISO code such as EUR), description (letters, digits and dashes only), firstName and lastName of the expected account holder. Every call is a new payment that is never undone: call it once per account, only when the user has asked for a deposit check, and never again to retry without asking the user.",
	receipt: { name: 'transactionId', of: (json) => json.transactionId },
	fields: [
		decimalText('amount', {
			displayName: 'Amount',
			required: true,
			maxDecimals: 2,
			positive: true,
			placeholder: '0.01',
			description: 'The small amount sent to the account, e.g. 0.01.',
		}),
		withLoadedOptions(
			text('currency', {
				displayName: 'Currency Name or ID',
				required: true,
				default: 'EUR',
				description:
					'Currency of the amount. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a> (any ISO 4217 code; lower case is upper-cased).',
				normalize: (value) => value.trim().toUpperCase(),
				rules: [rule.pattern(/^[A-Z]{3}$/, 'a three-letter ISO 4217 currency code such as EUR')],
			}),
			'getCurrencies',
		),
		text('description', {
			displayName: 'Description',
			required: true,
			placeholder: 'order-4711',
			description: 'Your reference for this deposit, echoed in the response.',
			rules: [rule.pattern(/^[A-Za-z0-9-]+$/, 'only letters, digits and hyphens (no spaces or other characters)')],
		}),
		text('firstName', {
			displayName: 'First Name',
			required: true,
			placeholder: 'Anna',
			description: 'First name of the expected account holder',
		}),
		text('lastName', {
			displayName: 'Last Name',
			required: true,
			placeholder: 'Schmidt',
			description: 'Last name of the expected account holder',
		}),
		boolean('piiToggle', {
			displayName: 'Return Holder Name',
			required: true,
			description:
				'Whether the response may include the account holder name the bank returned (returnedFirstName, returnedLastName). Sent as piiToggle 1 (on) or 0 (off).',
			wire: (on) => (on ? 1 : 0),
		}),
		choice('nameMatchLogic', {
			displayName: 'Name Match Logic',
			required: true,
			default: 'exact',
			description: 'How the given name is compared with the account holder name',
			options: [
				{ name: 'Exact', value: 'exact', description: 'The names must be equal (score 100 or 0)' },
				{ name: 'Fuzzy', value: 'fuzzy', description: 'Similar spellings score between 0 and 100' },
			],
		}),
	],
};

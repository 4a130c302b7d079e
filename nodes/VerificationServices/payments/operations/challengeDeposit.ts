import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { boolean, check, choice, text } from '../../../shared/fields/rules';
import { amount, currencyField } from '../money-fields';

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
	effect: { does: 'moves money' },
	toolDescription:
		"sends a small real deposit to a person's bank account to verify who holds it; returns the verified IBAN, the status (OK or FAIL) and a name-match score. Supply amount (for example 0.01), currency (ISO code such as EUR), description (letters, digits and dashes only), firstName and lastName of the expected account holder. Every call is a new payment that is never undone: call it once per account, only when the user has asked for a deposit check, and never again to retry without asking the user.",
	receipt: 'transactionId',
	simplify: [
		'transactionId',
		'status',
		'globalResult.overall',
		'nameMatchScore',
		'returnedFirstName',
		'returnedLastName',
		'iban',
		'amount',
		'currency',
		'description',
	],
	fields: [
		{
			property: {
				displayName: 'Amount',
				name: 'amount',
				type: 'string',
				default: '',
				required: true,
				placeholder: '0.01',
				description:
					'The small amount sent to the account, e.g. 0.01. A number from an expression is sent with 2 decimals (1 becomes "1.00").',
			},
			rule: amount,
		},
		currencyField,
		{
			property: {
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'order-4711',
				description: 'Your reference for this deposit, echoed in the response',
			},
			rule: text({
				checks: [
					check.pattern(
						/^[A-Za-z0-9-]+$/,
						'only letters, digits and hyphens (no spaces or other characters)',
					),
				],
			}),
		},
		{
			property: {
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Anna',
				description: 'First name of the expected account holder',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Schmidt',
				description: 'Last name of the expected account holder',
			},
			rule: text(),
		},
		{
			property: {
				displayName: 'Return Holder Name',
				name: 'piiToggle',
				type: 'boolean',
				default: false,
				required: true,
				description:
					'Whether the response may include the account holder name the bank returned (returnedFirstName, returnedLastName). Sent as piiToggle 1 (on) or 0 (off).',
			},
			rule: boolean((on) => (on ? 1 : 0)),
		},
		{
			property: {
				displayName: 'Name Match Logic',
				name: 'nameMatchLogic',
				type: 'options',
				options: [
					{
						name: 'Exact',
						value: 'exact',
						description: 'The names must be equal (score 100 or 0)',
					},
					{
						name: 'Fuzzy',
						value: 'fuzzy',
						description: 'Similar spellings score between 0 and 100',
					},
				],
				default: 'exact',
				required: true,
				description: 'How the given name is compared with the account holder name',
			},
			rule: choice,
		},
	],
};

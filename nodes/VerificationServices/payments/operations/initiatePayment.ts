import { valueAt } from '../../../shared/responses/envelope';
import { bic, iban } from '../../../shared/fields/bank-account';
import { responseJson } from '../../../shared/responses/json';
import type { OperationDefinition } from '../../../shared/operation/operation-types';
import { check, text } from '../../../shared/fields/rules';
import { amount, currencyField } from '../money-fields';

const trimmed = (value: string) => value.trim();

export const initiatePayment: OperationDefinition = {
	value: 'initiatePayment',
	name: 'Initiate Payment',
	action: 'Initiate a bank payment',
	description:
		'Start a payment by bank: returns the redirectUrl the payer opens to confirm the payment at their bank. Moves money: never sent twice for one item.',
	method: 'POST',
	path: '/payments/initiate',
	// Each call creates a payment the payer can confirm: never resent after a network error.
	repeatable: false,
	effect: { does: 'moves money' },
	toolDescription:
		'creates a bank payment of amount (for example 49.90) in currency (ISO code such as EUR) to the account IBAN, with your referenceId, a transactionDescription the payer sees and the returnUrl the bank sends the payer back to. Returns redirectUrl: the payer must open it in a full browser window (never an iframe) to confirm at their bank; the result comes later (Get Payment Status with the same referenceId). Every call is a new payment request: call it once per order, only when the user asked for this payment, and never again to retry without asking the user.',
	receipt: 'requestId',
	// No payment can go on without the link the payer opens.
	expects: { allOf: ['redirectUrl'] },
	hints: {
		400: 'The API refused the payment: check the field named in the message (the account and currency must be ones your provider accepts for payments by bank).',
	},
	fields: [
		{
			property: {
				displayName:
					'Send the payer to redirectUrl in a full browser redirect (a link or an HTTP redirect), never in an iframe or a WebView: banks refuse to be framed. The outcome arrives at the IDCanopy Umbrella Trigger (Signed Journey or Payment Result), or ask Get Payment Status with the same referenceId.',
				name: 'redirectNotice',
				type: 'notice',
				default: '',
			},
		},
		{
			property: {
				displayName: 'Reference ID',
				name: 'referenceId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'order-4711',
				description:
					'Your own unique reference for this payment (an order number). Get Payment Status and the payment result name the payment by it.',
			},
			rule: text({ normalize: trimmed }),
		},
		{
			property: {
				displayName: 'Transaction Description',
				name: 'transactionDescription',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'Order 4711',
				description: 'What the payment is for: the payer sees it at their bank',
			},
			rule: text({ normalize: trimmed }),
		},
		{
			property: {
				displayName: 'Return URL',
				name: 'returnUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://shop.example.com/checkout/done',
				description:
					'Where the bank sends the payer back once they confirmed or cancelled the payment',
			},
			rule: text({ normalize: trimmed, checks: [check.httpUrl] }),
		},
		{
			property: {
				displayName: 'IBAN',
				name: 'IBAN',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'DE89 3704 0044 0532 0130 00',
				description: 'The account that receives the payment (yours)',
			},
			rule: iban,
		},
		currencyField,
		{
			property: {
				displayName: 'Amount',
				name: 'amount',
				type: 'string',
				default: '',
				required: true,
				placeholder: '49.90',
				description:
					'The amount the payer pays, e.g. 49.90. A number from an expression is sent with 2 decimals (5 becomes "5.00").',
			},
			rule: amount,
		},
		{
			property: {
				displayName: 'Stored BIC',
				name: 'storedBIC',
				type: 'string',
				default: '',
				placeholder: 'COBADEFFXXX',
				description:
					"The payer's bank, when you know it from an earlier payment: the payer then skips choosing their bank",
			},
			rule: bic,
			additional: true,
		},
		{
			property: {
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'de',
				description: 'Language of the pages the payer sees, as an ISO 639-1 code',
			},
			rule: text({
				normalize: (value) => value.trim().toLowerCase(),
				checks: [check.pattern(/^[a-z]{2}$/, 'a two-letter ISO 639-1 language code such as de')],
			}),
			additional: true,
		},
		{
			property: {
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'DE',
				description:
					"Country of the payer's bank, as an ISO 3166-1 alpha-2 code: the bank list the payer chooses from",
			},
			rule: text({
				normalize: (value) => value.trim().toUpperCase(),
				checks: [check.pattern(/^[A-Z]{2}$/, 'a two-letter ISO 3166-1 country code such as DE')],
			}),
			additional: true,
		},
	],
	toItems: (response, { values }) => {
		const json = responseJson(response.body);
		// Top-level copies for the next nodes (the link to the payer, Get Payment Status); the answer stays whole.
		return [
			{
				json: {
					...json,
					redirectUrl: valueAt(json, 'redirectUrl') as string,
					requestId: (valueAt(json, 'requestId') ?? null) as string,
					referenceId: (valueAt(json, 'referenceId') ?? values.referenceId) as string,
				},
			},
		];
	},
};

import type { INodePropertyOptions } from 'n8n-workflow';

/** Common currencies for the Currency dropdown; any other ISO 4217 code can be given by expression. */
const CURRENCIES: Array<[code: string, name: string]> = [
	['AUD', 'Australian Dollar'],
	['BGN', 'Bulgarian Lev'],
	['CAD', 'Canadian Dollar'],
	['CHF', 'Swiss Franc'],
	['CZK', 'Czech Koruna'],
	['DKK', 'Danish Krone'],
	['EUR', 'Euro'],
	['GBP', 'British Pound'],
	['HUF', 'Hungarian Forint'],
	['ISK', 'Icelandic Króna'],
	['JPY', 'Japanese Yen'],
	['NOK', 'Norwegian Krone'],
	['NZD', 'New Zealand Dollar'],
	['PLN', 'Polish Złoty'],
	['RON', 'Romanian Leu'],
	['SEK', 'Swedish Krona'],
	['TRY', 'Turkish Lira'],
	['USD', 'US Dollar'],
];

export function currencyOptions(): INodePropertyOptions[] {
	return CURRENCIES.map(([code, name]) => ({ name: `${code} - ${name}`, value: code }));
}

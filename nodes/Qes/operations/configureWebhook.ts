import type { IDataObject } from 'n8n-workflow';

import { FieldError, quote } from '../../shared/field-error';
import { parameter, rule, text } from '../../shared/fields';
import type { OperationDefinition } from '../../shared/operation-types';
import { HEADER_NAME } from '../../shared/redact';

/**
 * The UI's name/value pairs as the object the API takes (`metadata.authHeader`). Header values are
 * secrets: no message ever quotes one, only the header's name and position.
 */
export function authHeaderToWire(value: unknown): Record<string, string> | undefined {
	const entries = (value as { header?: unknown } | undefined)?.header;
	if (entries === undefined || entries === null) return undefined;
	if (!Array.isArray(entries)) throw new FieldError('authHeader', 'authHeader must be a list of name/value pairs');
	const headers: Record<string, string> = {};
	const seen = new Set<string>();
	entries.forEach((entry: { name?: unknown; value?: unknown }, position) => {
		const label = `authHeader entry ${position + 1}`;
		const name = typeof entry?.name === 'string' ? entry.name.trim() : '';
		if (!HEADER_NAME.test(name)) {
			throw new FieldError(
				'authHeader',
				`${label}: the header name must be letters, digits and !#$%&'*+.^_\`|~-, got ${quote(entry?.name ?? '')}`,
			);
		}
		if (seen.has(name.toLowerCase())) {
			throw new FieldError('authHeader', `${label}: the header name must be unique, got "${name}" twice`);
		}
		seen.add(name.toLowerCase());
		const headerValue = entry?.value;
		if (typeof headerValue !== 'string' || headerValue.trim() === '') {
			throw new FieldError('authHeader', `${label}: the value of header "${name}" must be a non-blank text (value not shown)`);
		}
		if (/[\r\n\0]/.test(headerValue)) {
			throw new FieldError('authHeader', `${label}: the value of header "${name}" must be a single line without line breaks (value not shown)`);
		}
		headers[name] = headerValue;
	});
	return Object.keys(headers).length ? headers : undefined;
}

export const configureWebhook: OperationDefinition = {
	value: 'configureWebhook',
	name: 'Configure Webhook',
	action: 'Configure the status webhook',
	description:
		'Set the URL that receives QES status pings. The API keeps one webhook URL per account: this replaces the previous one.',
	method: 'POST',
	path: '/onboarding/configureWebhook',
	// Saving the same URL again leaves the same state.
	repeatable: true,
	// The header values are the webhook's secret: the shared request path cuts them out of every error.
	secretFields: ['authHeader'],
	toolDescription:
		"CHANGES ACCOUNT SETTINGS: replaces the account's one QES status webhook with webhookUrl, so status pings stop reaching whatever listened before. Supply webhookUrl. Call it only when the user asks for exactly this change.",
	fields: [
		parameter(
			'replacesNotice',
			{
				displayName:
					'The API keeps one webhook URL per account: configuring a URL here replaces the previous one, also one set by a QES Trigger node. The QES Trigger node configures its own URL automatically when its workflow is activated.',
			},
			{ type: 'notice', default: '' },
			() => undefined,
		),
		text('webhookUrl', {
			displayName: 'Webhook URL',
			required: true,
			placeholder: 'https://example.com/webhook/qes',
			description: 'The URL that receives a status ping when an onboarding session changes.',
			rules: [rule.httpUrl],
		}),
		parameter(
			'authHeader',
			{
				displayName: 'Auth Headers',
				description:
					'Headers the API sends with every ping, so your endpoint can tell genuine pings from others (sent as metadata.authHeader)',
				placeholder: 'Add Header',
			},
			{
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Header',
						name: 'header',
						values: [
							{
								displayName: 'Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'X-Webhook-Token',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								typeOptions: { password: true },
								default: '',
							},
						],
					},
				],
			},
			authHeaderToWire,
		),
	],
	shapeBody: (body: IDataObject, values) =>
		values.authHeader ? { ...body, metadata: { authHeader: values.authHeader as IDataObject } } : body,
};

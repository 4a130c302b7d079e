import { FieldError, quote } from '../../../shared/fields/field-error';
import type { OperationDefinition, Rule } from '../../../shared/operation/operation-types';
import { check, text } from '../../../shared/fields/rules';

/**
 * The name/value pairs as the object the API takes (`metadata.authHeader`). Header values are
 * secrets: no message ever quotes one, only the header's name and position.
 */
const authHeaders: Rule = {
	toWire: (value, { name }) => {
		const entries = (value as { header?: unknown } | undefined)?.header;
		if (entries === undefined || entries === null) return undefined;
		if (!Array.isArray(entries))
			throw new FieldError(name, `${name} must be a list of name/value pairs`);
		const headers: Record<string, string> = {};
		const seen = new Set<string>();
		entries.forEach((entry: { name?: unknown; value?: unknown }, position) => {
			const label = `${name} entry ${position + 1}`;
			const header = typeof entry?.name === 'string' ? entry.name.trim() : '';
			if (!check.headerName.test(header)) {
				throw new FieldError(
					name,
					`${label}: the header name must be ${check.headerName.hint}, got ${quote(entry?.name ?? '')}`,
				);
			}
			if (seen.has(header.toLowerCase()))
				throw new FieldError(
					name,
					`${label}: the header name must be unique, got "${header}" twice`,
				);
			seen.add(header.toLowerCase());
			const headerValue = entry?.value;
			if (typeof headerValue !== 'string' || headerValue.trim() === '') {
				throw new FieldError(
					name,
					`${label}: the value of header "${header}" must be a non-blank text (value not shown)`,
				);
			}
			if (/[\r\n\0]/.test(headerValue)) {
				throw new FieldError(
					name,
					`${label}: the value of header "${header}" must be a single line without line breaks (value not shown)`,
				);
			}
			headers[header] = headerValue;
		});
		return Object.keys(headers).length ? headers : undefined;
	},
};

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
	effect: { does: "changes where the account's QES status pings go" },
	toolDescription:
		"replaces the account's one QES status webhook with webhookUrl, so status pings stop reaching whatever listened before. Supply webhookUrl. Call it only when the user asks for exactly this change.",
	fields: [
		{
			property: {
				displayName:
					'The API keeps one webhook URL per account: configuring a URL here replaces the previous one, also one set by an IDCanopy Umbrella Trigger for QES status pings. That trigger sets its own URL when its workflow is published (n8n 1.x: activated).',
				name: 'replacesNotice',
				type: 'notice',
				default: '',
			},
		},
		{
			property: {
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://example.com/webhook/qes',
				description: 'The URL that receives a status ping when an onboarding session changes',
			},
			rule: text({ checks: [check.httpUrl] }),
		},
		{
			property: {
				displayName: 'Auth Headers',
				name: 'authHeader',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Header',
				description:
					'Headers the API sends with every ping, so your endpoint can tell genuine pings from others (sent as metadata.authHeader)',
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
			rule: authHeaders,
			nest: 'metadata',
			// The header values are the webhook's secret: cut out of every error.
			secret: true,
		},
	],
};

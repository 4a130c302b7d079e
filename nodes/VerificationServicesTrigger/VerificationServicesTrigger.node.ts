import {
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { deliveryWebhooks } from '../shared/delivery/delivery-webhook';
import { shownOnlyWhen } from '../shared/operation/node-properties';
import { unknownValue } from '../shared/operation/unknown-value';
import { qesStatusSource } from './qesStatus/source';
import { checkSigningSecret } from './signedResult/secret-check';
import { signedResultSource } from './signedResult/source';
import type { TriggerSource } from './trigger-source';

const sources: TriggerSource[] = [qesStatusSource, signedResultSource];

/** The source's parameters, shown only when it is chosen (both have an Ignore Duplicates Within). */
const shownFor = (source: TriggerSource): INodeProperties[] =>
	source.properties.map((property) => shownOnlyWhen(property, 'source', source.value));

function chosenSource(context: IHookFunctions | IWebhookFunctions): TriggerSource {
	const value = context.getNodeParameter('source', qesStatusSource.value);
	const source = sources.find((s) => s.value === value);
	if (!source) {
		const known = sources.map((s) => s.value);
		throw unknownValue(context.getNode(), `source "${String(value)}"`, known);
	}
	return source;
}

/** Starts a workflow for the events the provider sends: QES status pings or signed results (trigger-source.ts). */
export class VerificationServicesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'IDCanopy Umbrella Trigger',
		name: 'verificationServicesTrigger',
		icon: {
			light: 'file:../../icons/verification.svg',
			dark: 'file:../../icons/verification.dark.svg',
		},
		group: ['trigger'],
		// Version 2, not 1: n8n treats every version-1 webhook node as its own Webhook node v1 (it
		// evaluates $parameter.options.binaryData in its expression sandbox on each request and parses
		// any body before webhook()); from version 2 on it parses JSON, text, form and XML bodies
		// itself, keeping the exact bytes (req.rawBody) the signature is checked on.
		version: 2,
		subtitle:
			'={{ $parameter["source"] === "signedResult" ? {"all": "All results", "journeyResult": "Journey results", "paymentResult": "Payment results"}[$parameter["events"]] : ($parameter["options"]["onlyStatuses"] ? "Statuses: " + $parameter["options"]["onlyStatuses"] : "Every status ping") }}',
		// n8n's node panel shows the trigger's description for the entry it merges with the action node.
		description:
			'IDCanopy Umbrella verification (AML, KYB, payments, documents, phone OTP, QES, address, identity): starts the workflow when a QES onboarding session sends a status ping, or when the provider delivers a signed hosted journey or payment result',
		defaults: { name: 'IDCanopy Umbrella Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// One entry per credential type: n8n-core reads only the first entry of a type. The API
		// credential serves QES Status Ping, and Signed Result only to confirm unsigned payment
		// results with Get Payment Status; `unsignedPayments` exists only for Signed Result.
		credentials: [
			{
				name: 'verificationServicesApi',
				required: true,
				displayOptions: { hide: { unsignedPayments: ['refuse'] } },
			},
			{
				name: 'verificationServicesWebhookApi',
				required: true,
				testedBy: 'signingSecret',
				displayOptions: { show: { source: ['signedResult'] } },
			},
		],
		webhooks: deliveryWebhooks,
		eventTriggerDescription: 'Waiting for an event from the provider',
		activationMessage:
			'Events of the chosen source now start this workflow. QES status pings: the webhook set elsewhere for this account was replaced. Signed results: give the provider the production URL.',
		properties: [
			{
				// n8n's node panel lists a trigger's events from a property called "Trigger On".
				displayName: 'Trigger On',
				name: 'source',
				type: 'options',
				noDataExpression: true,
				options: sources.map((source) => ({
					name: source.name,
					value: source.value,
					action: source.action,
					description: source.description,
				})),
				default: 'qesStatus',
			},
			...sources.flatMap(shownFor),
		],
	};

	methods = {
		credentialTest: {
			async signingSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkSigningSecret(credential.data?.signingSecret);
			},
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await chosenSource(this).checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await chosenSource(this).create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await chosenSource(this).delete.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await chosenSource(this).webhook.call(this);
	}
}

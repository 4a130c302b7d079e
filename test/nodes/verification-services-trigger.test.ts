/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import { type INodeParameters, NodeHelpers } from 'n8n-workflow';

import { VerificationServicesWebhookApi } from '../../credentials/VerificationServicesWebhookApi.credentials';
import { VerificationServicesTrigger } from '../../nodes/VerificationServicesTrigger/VerificationServicesTrigger.node';
import { actionNode, useSandbox } from '../helpers/sandbox';
import { runWebhookMethod } from '../helpers/n8n';

const sandbox = useSandbox();
const trigger = new VerificationServicesTrigger();
const { description } = trigger;

describe('the trigger (IDCanopy Umbrella Trigger)', () => {
	it("is the action node's trigger: n8n's node panel merges a trigger into the node of its name without \"Trigger\"", () => {
		expect([description.name, description.displayName, description.version]).toEqual([`${actionNode.description.name}Trigger`, 'IDCanopy Umbrella Trigger', 2]);
	});

	it('lists its events under "Trigger On" (where n8n reads a trigger\'s events), with action labels', () => {
		const [source, ...rest] = description.properties;
		expect(source).toMatchObject({ displayName: 'Trigger On', name: 'source', type: 'options', noDataExpression: true, default: 'qesStatus' });
		expect(source.options).toEqual([
			expect.objectContaining({ value: 'qesStatus', action: 'On QES onboarding status ping' }),
			expect.objectContaining({ value: 'signedResult', action: 'On signed journey or payment result' }),
		]);
		// Every other parameter belongs to one source, and none to a node version.
		expect(rest.filter((p) => p.displayOptions?.show?.source?.length !== 1).map((p) => p.name)).toEqual([]);
		expect(JSON.stringify(description.properties)).not.toContain('@version');
	});

	// n8n-core gives a node a credential only when the first description of its type is displayed.
	it.each([
		['QES status pings', { source: 'qesStatus' }, ['verificationServicesApi']],
		['signed results', { source: 'signedResult', unsignedPayments: 'refuse' }, ['verificationServicesWebhookApi']],
		['signed results confirming unsigned payments', { source: 'signedResult', unsignedPayments: 'confirm' }, ['verificationServicesWebhookApi', 'verificationServicesApi']],
	])('%s use their credentials, and only those', (_source, parameters, expected) => {
		const types = [...new Set(description.credentials!.map((c) => c.name))];
		const usable = types.filter((type) => NodeHelpers.displayParameter(parameters as INodeParameters, description.credentials!.find((c) => c.name === type)!, null, description));
		expect(usable.sort()).toEqual([...expected].sort());
	});
});

describe('the trigger activates the chosen source', () => {
	const activation = (method: 'checkExists' | 'create' | 'delete', parameters: INodeParameters) =>
		runWebhookMethod({
			node: trigger,
			parameters,
			method,
			mode: 'trigger',
			credentials: { verificationServicesApi: sandbox().credentials, verificationServicesWebhookApi: { signingSecret: 'whsec-unit-7f3a9c1e5b2d4f60' } },
			credentialTypes: [...sandbox().credentialTypes, new VerificationServicesWebhookApi()],
		});

	// As the action node refuses an unknown resource or operation (verification-services.test.ts).
	it('an unknown stored source is refused on activation, nothing sent', async () => {
		const { error } = await activation('create', { source: 'newerSource' });
		expect(error?.message).toBe('Unknown source "newerSource"');
		expect((await sandbox().stats()).total).toBe(0);
	});

	// Activation refusing a secret that could never match: webhook-trigger.test.ts.
	it('signed results: nothing to register; activation and deactivation send nothing', async () => {
		for (const method of ['checkExists', 'create', 'delete'] as const) {
			const { error, result } = await activation(method, { source: 'signedResult' });
			expect([method, error, result]).toEqual([method, undefined, method !== 'checkExists']);
		}
		expect((await sandbox().stats()).total).toBe(0);
	});
});

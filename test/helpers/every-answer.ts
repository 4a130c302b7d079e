/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import type { IDataObject, INodeExecutionData, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { resources } from '../../nodes/VerificationServices/resources';
import type { OperationDefinition, ResourceDefinition } from '../../nodes/shared/operation/operation-types';
import { type Sandbox, actionNode } from './sandbox';
import { operationOf } from './operation-tables';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { exampleParameters } = require('../e2e/lib/package-nodes') as {
	exampleParameters: (description: INodeTypeDescription, resource: string, operation: string) => INodeParameters;
};

/**
 * Every operation of the action node once, with typical values, against the emulator: the whole
 * answer each one outputs (Simplify off), in the generation the emulator plays. Steps that need an id
 * from an earlier step (a journey, a transaction, an OTP reference) get it from that step's answer;
 * an operation the steps do not name runs with its own example values.
 */
export interface Answer {
	resource: ResourceDefinition;
	/** The operation's table entry. */
	definition: OperationDefinition;
	operation: string;
	items: INodeExecutionData[];
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEUlEQVR42mP4sG8aHDHg5AAAFqUbMQlDRH0AAAAASUVORK5CYII=';

export async function everyAnswer(sandbox: Sandbox): Promise<Answer[]> {
	const answers: Answer[] = [];
	const run = async (parameters: INodeParameters, input?: INodeExecutionData[]) => {
		const operation = String(parameters.operation);
		const id = `${String(parameters.resource)}.${operation}`;
		const result = await sandbox.run(actionNode, { simple: false, ...parameters }, { input });
		if (result.error) throw new Error(`${id}: ${result.error.message}`);
		const resource = resources.find((r) => r.value === parameters.resource)!;
		answers.push({ resource, definition: operationOf(id), operation, items: result.items });
		return result.items.map((i) => i.json);
	};
	await run({ resource: 'aml', operation: 'checkIndividual', name: 'Viktor Sanctioned', dob: '1970-01-15' });
	await run({ resource: 'aml', operation: 'registerIndividual', profileId: 'bench-monitoring-1', names: 'Jane Doe' });
	await run({ resource: 'aml', operation: 'removeSearchProfile', profileId: 'bench-monitoring-1' });

	const [company] = await run({ resource: 'kyb', operation: 'search', name: 'Acme', registrationNumber: 'HRB 123456' });
	await run({ resource: 'kyb', operation: 'getDetails', transactionId: company.transactionId as string, companyId: company.companyId as string, include: ['officers', 'documents', 'transparency'] });
	await run({ resource: 'kyb', operation: 'retrieveDocument', linkToken: 'lt-DE-HRB-123456-register-extract' });
	await run({ resource: 'kyb', operation: 'listCompanyProfiles', returnAll: false, limit: 10 });
	await run({ resource: 'kyb', operation: 'listCountries' });

	await run({ resource: 'payments', operation: 'challengeDeposit', amount: '0.01', currency: 'EUR', description: 'order-4711', firstName: 'Anna', lastName: 'Schmidt', piiToggle: true, nameMatchLogic: 'exact' });
	const [payment] = await run({ resource: 'payments', operation: 'initiatePayment', referenceId: 'bench-order-1', transactionDescription: 'Order bench-order-1', returnUrl: 'https://shop.example.com/checkout/done', IBAN: 'DE89 3704 0044 0532 0130 00', currency: 'eur', amount: '19.99' });
	await run({ resource: 'payments', operation: 'getPaymentStatus', referenceId: payment.referenceId as string });

	const [journey] = await run({ resource: 'document', operation: 'openJourney' });
	const journeyId = journey.journeyId as string;
	for (const imageSide of ['front', 'back', 'selfie'])
		await run({ resource: 'document', operation: 'addImage', journeyId, imageSide, imageSource: 'binary', binaryPropertyName: 'data' }, [
			{ json: {}, binary: { data: { data: PNG, mimeType: 'image/png', fileName: `${imageSide}.png` } } },
		]);
	await run({ resource: 'document', operation: 'verifyAge', journeyId, ageCondition: 'atLeast', ageFrom: 18 });
	await run({ resource: 'document', operation: 'verifyDocument', journeyId });
	await run({ resource: 'document', operation: 'startHostedJourney', processName: 'onboarding' });

	const [otp] = await run({ resource: 'phone', operation: 'sendOtp', method: 'sms', phoneNumber: '+49 151 1234 5678', additionalFields: { securityFactor: '271828' } });
	await run({ resource: 'phone', operation: 'checkOtp', referenceId: otp.referenceId as string, securityFactor: '271828' });
	await run({ resource: 'phone', operation: 'getPhoneStatus', phoneNumber: '+43 650 999-0001' });
	await run({ resource: 'phone', operation: 'getPhoneId', phoneNumber: '+43 650 1234567', accountLifecycleEvent: 'create', addons: ['ageVerify', 'portingHistory', 'simSwap'], consent: true, ageThreshold: 21, pastXDays: 30 });
	await run({ resource: 'phone', operation: 'getRiskScore', phoneNumber: '+43 650 999-0002' });
	await run({ resource: 'phone', operation: 'getFullIntelligence', phoneNumber: '+43 650 999 0003' });

	await run({ resource: 'qes', operation: 'createSessionLink', email: 'erika.mustermann@example.com', phoneNumber: '+49 151 1234-5678', redirectUrl: 'https://example.com/onboarding/done', docUrl: 'https://example.com/contracts/contract.pdf', signForms: { form: [{ fieldId: 'signature1' }] } });
	await run({ resource: 'qes', operation: 'getVerification', sessionId: 'qes-completed-001', options: { downloadSignedDocuments: true } });
	await run({ resource: 'qes', operation: 'configureWebhook', webhookUrl: 'https://hooks.example.com/qes/bench' });

	await run({ resource: 'address', operation: 'verify', country: 'at', street: 'haupt str.', number: '5', zip: '1010', city: 'Wien', firstname: 'Erika', lastname: 'Mustermann', additionalFields: { reason: 'onboarding' } });
	await run({ resource: 'identity', operation: 'verify', firstName: 'Erika', lastName: 'Mustermann', birthDate: '1964-08-12', street: 'Heidestraße', postalCode: '51147', city: 'Köln', countryCode: 'de' });

	for (const resource of resources) {
		for (const { value } of resource.operations) {
			if (!answers.some((a) => a.resource === resource && a.operation === value)) await run(exampleParameters(actionNode.description, resource.value, value));
		}
	}
	return answers;
}

/** The fields of an answer: every value that is not an object, lists counted as one field. */
export function fieldCount(json: IDataObject): number {
	return Object.values(json).reduce<number>(
		(n, v) => n + (v && typeof v === 'object' && !Array.isArray(v) ? fieldCount(v as IDataObject) : 1),
		0,
	);
}

/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, never published: n8n's rules for node runtime code do not apply */
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { VerificationAddress } from '../../nodes/Address/VerificationAddress.node';
import { VerificationAml } from '../../nodes/Aml/VerificationAml.node';
import { VerificationDocument } from '../../nodes/Document/VerificationDocument.node';
import { VerificationIdentity } from '../../nodes/Identity/VerificationIdentity.node';
import { VerificationKyb } from '../../nodes/Kyb/VerificationKyb.node';
import { VerificationPayments } from '../../nodes/Payments/VerificationPayments.node';
import { VerificationPhone } from '../../nodes/Phone/VerificationPhone.node';
import { VerificationQes } from '../../nodes/Qes/VerificationQes.node';
import type { Sandbox } from './sandbox';
import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { OPERATION_TABLES } from './operation-tables';

function operationOf(node: INodeType, value: string): OperationDefinition {
	const found = OPERATION_TABLES[node.description.name]?.find((op) => op.value === value);
	if (!found) throw new Error(`${node.description.name} has no operation ${value}`);
	return found;
}

/**
 * An operation's required parameters at their example values: the default, or the placeholder where the
 * default is empty or an expression (as test/golden/new-operation.js writes a new golden workflow).
 */
function exampleParameters(node: INodeType, operation: string): INodeParameters {
	const values: INodeParameters = { operation };
	for (const property of node.description.properties) {
		const show = property.displayOptions?.show ?? {};
		if (!property.required || !(show.operation as unknown[] | undefined)?.includes(operation)) continue;
		const conditions = Object.entries(show).filter(([key]) => key !== 'operation' && key !== '@version');
		if (!conditions.every(([key, allowed]) => !key.startsWith('@') && (allowed as unknown[]).includes(values[key]))) continue;
		const empty = property.default === '' || property.default === undefined || String(property.default).startsWith('=');
		values[property.name] = empty && property.placeholder !== undefined ? property.placeholder : property.default;
	}
	return values;
}

/**
 * Every operation of every action node once, with typical values, against the emulator: the whole
 * answer each one outputs (version 1), in the generation the emulator plays. Steps that need an id
 * from an earlier step (a journey, a transaction, an OTP reference) get it from that step's answer;
 * an operation the steps do not name runs with its own example values.
 */
export interface Answer {
	node: INodeType;
	/** The operation's table entry. */
	definition: OperationDefinition;
	nodeName: string;
	operation: string;
	items: INodeExecutionData[];
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEUlEQVR42mP4sG8aHDHg5AAAFqUbMQlDRH0AAAAASUVORK5CYII=';

export async function everyAnswer(sandbox: Sandbox): Promise<Answer[]> {
	const answers: Answer[] = [];
	const run = async (node: INodeType, parameters: INodeParameters, input?: INodeExecutionData[]) => {
		const result = await sandbox.run(node, parameters, { typeVersion: 1, input });
		if (result.error) throw new Error(`${node.description.name} ${String(parameters.operation)}: ${result.error.message}`);
		const definition = operationOf(node, String(parameters.operation));
		answers.push({ node, definition, nodeName: node.description.displayName, operation: String(parameters.operation), items: result.items });
		return result.items.map((i) => i.json);
	};
	const aml = new VerificationAml();
	await run(aml, { operation: 'checkIndividual', name: 'Viktor Sanctioned', dob: '1970-01-15' });
	await run(aml, { operation: 'registerIndividual', profileId: 'bench-monitoring-1', names: 'Jane Doe' });
	await run(aml, { operation: 'removeSearchProfile', profileId: 'bench-monitoring-1' });

	const kyb = new VerificationKyb();
	const [company] = await run(kyb, { operation: 'search', name: 'Acme', registrationNumber: 'HRB 123456' });
	await run(kyb, { operation: 'getDetails', transactionId: company.transactionId as string, companyId: company.companyId as string, include: ['officers', 'documents', 'transparency'] });
	await run(kyb, { operation: 'retrieveDocument', linkToken: 'lt-DE-HRB-123456-register-extract' });
	await run(kyb, { operation: 'listCompanyProfiles', returnAll: false, limit: 10 });
	await run(kyb, { operation: 'listCountries' });

	const payments = new VerificationPayments();
	await run(payments, { operation: 'challengeDeposit', amount: '0.01', currency: 'EUR', description: 'order-4711', firstName: 'Anna', lastName: 'Schmidt', piiToggle: true, nameMatchLogic: 'exact' });
	const [payment] = await run(payments, { operation: 'initiatePayment', referenceId: 'bench-order-1', transactionDescription: 'Order bench-order-1', returnUrl: 'https://shop.example.com/checkout/done', IBAN: 'DE89 3704 0044 0532 0130 00', currency: 'eur', amount: '19.99' });
	await run(payments, { operation: 'getPaymentStatus', referenceId: payment.referenceId as string });

	const document = new VerificationDocument();
	const [journey] = await run(document, { operation: 'openJourney' });
	const journeyId = journey.journeyId as string;
	for (const imageSide of ['front', 'back', 'selfie'])
		await run(document, { operation: 'addImage', journeyId, imageSide, imageSource: 'binary', binaryPropertyName: 'data' }, [
			{ json: {}, binary: { data: { data: PNG, mimeType: 'image/png', fileName: `${imageSide}.png` } } },
		]);
	await run(document, { operation: 'verifyAge', journeyId, ageCondition: 'atLeast', ageFrom: 18 });
	await run(document, { operation: 'verifyDocument', journeyId });
	await run(document, { operation: 'startHostedJourney', processName: 'onboarding' });

	const phone = new VerificationPhone();
	const [otp] = await run(phone, { operation: 'sendOtp', method: 'sms', phoneNumber: '+49 151 1234 5678', additionalFields: { securityFactor: '271828' } });
	await run(phone, { operation: 'checkOtp', referenceId: otp.referenceId as string, securityFactor: '271828' });
	await run(phone, { operation: 'getPhoneStatus', phoneNumber: '+43 650 999-0001' });
	await run(phone, { operation: 'getPhoneId', phoneNumber: '+43 650 1234567', accountLifecycleEvent: 'create', addons: ['ageVerify', 'portingHistory', 'simSwap'], consent: true, ageThreshold: 21, pastXDays: 30 });
	await run(phone, { operation: 'getRiskScore', phoneNumber: '+43 650 999-0002' });
	await run(phone, { operation: 'getFullIntelligence', phoneNumber: '+43 650 999 0003' });

	const qes = new VerificationQes();
	await run(qes, { operation: 'createSessionLink', email: 'erika.mustermann@example.com', phoneNumber: '+49 151 1234-5678', redirectUrl: 'https://example.com/onboarding/done', docUrl: 'https://example.com/contracts/contract.pdf', signForms: { form: [{ fieldId: 'signature1' }] } });
	await run(qes, { operation: 'getVerification', sessionId: 'qes-completed-001', options: { downloadSignedDocuments: true } });
	await run(qes, { operation: 'configureWebhook', webhookUrl: 'https://hooks.example.com/qes/bench' });

	const address = new VerificationAddress();
	await run(address, { operation: 'verify', country: 'at', street: 'haupt str.', number: '5', zip: '1010', city: 'Wien', firstname: 'Erika', lastname: 'Mustermann', additionalFields: { reason: 'onboarding' } });
	const identity = new VerificationIdentity();
	await run(identity, { operation: 'verify', firstName: 'Erika', lastName: 'Mustermann', birthDate: '1964-08-12', street: 'Heidestraße', postalCode: '51147', city: 'Köln', countryCode: 'de' });

	for (const node of [aml, kyb, payments, document, phone, qes, address, identity]) {
		for (const { value } of OPERATION_TABLES[node.description.name]) {
			if (!answers.some((a) => a.node === node && a.operation === value)) await run(node, exampleParameters(node, value));
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

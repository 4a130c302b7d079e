'use strict';
// The hosted identity journey and the payment by bank as cases of the operation suite (format: see
// ./operations.js): the requests every field sends and what the nodes derive from both answer shapes.
// The full flows through the Verification Webhook Trigger run in hosted-flows.e2e.test.js.

const assert = require('node:assert/strict');

const SANDBOX_CUSTOMER_ID = require('../../../sandbox/server').SANDBOX_CUSTOMER_ID;


const CASES = [
	{
		key: 'hostedJourney',
		title: 'Document: start a hosted journey with every validation field and the document step',
		generations: true,
		steps: [
			{
				name: 'Start Hosted Journey',
				node: 'verificationDocument',
				operation: 'startHostedJourney',
				parameters: {
					processName: 'onboarding',
					steps: {
						extraForensics: true,
						liveness: true,
						blocking: true,
						permittedDocuments: { document: [{ idType: 'driversLicense', countries: 'at, de', excludedCountries: '' }] },
					},
					additionalFields: {
						fullName: 'Erika Mustermann',
						DOB: '1964-08-12',
						streetAddress: 'Hauptstraße 5',
						locality: 'Wien',
						postalCode: '1010',
						country: 'AT',
						iban: 'AT61 1904 3002 3457 3201',
						phoneNumber: '+43 650 123 4567',
						passThroughData: '{"customerNumber": "C-4711"}',
					},
				},
			},
		],
		async check({ out, sandbox, generation, answer, show }) {
			const [request] = await sandbox.requests('POST /sdk/universal/handshake');
			assert.deepEqual(request.body, {
				journey: { customerId: SANDBOX_CUSTOMER_ID, processName: 'onboarding' },
				steps: [
					{
						id: 'documentVerification',
						type: 'documentVerification',
						interface: 'Umbrella Toolbox',
						blocking: true,
						configuration: { extraForensics: true, liveness: true, permittedDocuments: [{ idType: 'driversLicense', countries: ['AT', 'DE'] }] },
					},
				],
				validationData: {
					fullName: 'Erika Mustermann',
					DOB: '1964/08/12',
					address: { streetAddress: 'Hauptstraße 5', locality: 'Wien', postalCode: '1010', country: 'AT' },
					iban: 'AT611904300234573201',
					phoneNumber: '+436501234567',
				},
				passThroughData: { customerNumber: 'C-4711' },
			});
			const [started] = out('Start Hosted Journey');
			const payload = answer(started);
			assert.equal(started.transactionId, payload[generation === 'g3' ? 'transactionId' : 'transaction_id']);
			assert.equal(started.uiHandle, payload[generation === 'g3' ? 'uiHandle' : 'ui_handle']);
			assert.match(started.uiHandle, new RegExp(`/journey/${started.transactionId}$`));
			assert.equal(JSON.stringify(started).includes(SANDBOX_CUSTOMER_ID), false, 'the customer id is in no output');
			const journey = await sandbox.get(`hosted-journeys/${started.transactionId}`);
			assert.equal(journey.status, 'created');
			show('startHostedJourney', { request: { ...request.body, journey: { ...request.body.journey, customerId: "[the credential's]" } }, output: started });
		},
	},
	{
		key: 'bankPayment',
		title: 'Payments: initiate a payment, the payer confirms at the redirect URL, then the payment status',
		generations: true,
		steps: [
			{
				name: 'Initiate Payment',
				node: 'verificationPayments',
				operation: 'initiatePayment',
				parameters: {
					referenceId: 'e2e-order-1',
					transactionDescription: 'Order e2e-order-1',
					returnUrl: 'https://shop.example.com/checkout/done',
					IBAN: 'DE89 3704 0044 0532 0130 00',
					currency: 'eur',
					amount: '19.99',
					additionalFields: { storedBIC: 'COBADEFFXXX', language: 'de', country: 'de' },
				},
			},
			{
				name: 'Payer Confirms',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: { method: 'GET', url: '={{ $json.redirectUrl }}', options: { response: { response: { responseFormat: 'text' } } } },
			},
			{
				name: 'Get Payment Status',
				node: 'verificationPayments',
				operation: 'getPaymentStatus',
				parameters: { referenceId: "={{ $('Initiate Payment').item.json.referenceId }}" },
			},
		],
		async check({ out, sandbox, generation, answer, show }) {
			const [initiateRequest] = await sandbox.requests('POST /payments/initiate');
			assert.deepEqual(initiateRequest.body, {
				referenceId: 'e2e-order-1',
				transactionDescription: 'Order e2e-order-1',
				returnUrl: 'https://shop.example.com/checkout/done',
				IBAN: 'DE89370400440532013000',
				currency: 'EUR',
				amount: '19.99',
				storedBIC: 'COBADEFFXXX',
				language: 'de',
				country: 'DE',
			});
			const [initiated] = out('Initiate Payment');
			const payload = answer(initiated);
			assert.deepEqual([initiated.redirectUrl, initiated.requestId, initiated.referenceId], [payload.redirectUrl, payload.requestId, 'e2e-order-1']);
			show('initiatePayment', { request: initiateRequest.body, output: initiated });

			const [statusRequest] = await sandbox.requests('POST /payments/status');
			assert.deepEqual(statusRequest.body, { referenceId: 'e2e-order-1' });
			const [status] = out('Get Payment Status');
			const raw = { status: 'SUCCESS', statusReasonInformation: 'Payment success' };
			const derived = { paymentStatus: 'SUCCESS', paymentOutcome: 'succeeded' };
			assert.deepEqual(status, generation === 'g3' ? { status: true, data: raw, ...derived } : { ...raw, ...derived });
			const payment = await sandbox.get('payments/e2e-order-1');
			assert.deepEqual(payment.history.map((h) => h.status), ['INITIATED', 'PENDING_EXTERNAL_AUTHORIZATION', 'SUCCESS']);
			show('getPaymentStatus', { request: statusRequest.body, output: status });
		},
	},
];

module.exports = { CASES };

'use strict';
// The operations the example workflows (examples/*.json) do not run, as a compact table: each case
// becomes one small workflow "Manual Trigger -> step -> step ...", run on every n8n version of the
// suite (test/e2e/operations.e2e.test.js), and its `check` asserts on the output.
//
// A case: { key, title, steps: [{ name, node, operation, parameters, settings? }], check(ctx) }
//   node:      the node's internal name without the package prefix ('verificationAml', ...); a step
//              with `type` and `typeVersion` instead is a core n8n node (e.g. a Code node feeding items)
//   settings:  node-level settings beside `parameters` (executeOnce, ...)
//   check:     async ({ out, items, sandbox }) => void, throws (node:assert) on a wrong result
//     out(stepName)    the step's output items' json (main output 0 of its first run)
//     items(stepName)  the same items whole (json, binary, pairedItem)
//     sandbox          { requests(routeKey), get(controlPath) }: the emulator's request log and
//                      control routes (GET /__control/<controlPath>)
// Together with the examples, the table runs every operation of every action node; the suite checks
// that against the operations the built nodes declare.

const assert = require('node:assert/strict');

const PACKAGE = 'n8n-nodes-verification-services';

// A 4x3 PNG, as a data: URL (the node strips the prefix before sending).
const PNG_DATA_URL =
	'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEUlEQVR42mP4sG8aHDHg5AAAFqUbMQlDRH0AAAAASUVORK5CYII=';

/** The webhook secret header value of the configureWebhook case: it must never show up in any output. */
const WEBHOOK_SECRET = 'e2e-webhook-secret-3f9a';

const CASES = [
	{
		key: 'amlMonitoring',
		title: 'AML: register an individual for monitoring, then remove the search profile',
		steps: [
			{
				name: 'Register Individual',
				node: 'verificationAml',
				operation: 'registerIndividual',
				parameters: {
					profileId: 'e2e-monitoring-0001',
					names: 'Jane Doe, Jane Smith',
					additionalFields: { gender: 'FEMALE', dob: '1980-04-30', searchAll: true, fuzzySearch: false },
				},
			},
			{
				name: 'Remove Search Profile',
				node: 'verificationAml',
				operation: 'removeSearchProfile',
				parameters: { profileId: '={{ $json.data.profileId }}' },
			},
		],
		async check({ out, sandbox }) {
			const [registered] = out('Register Individual');
			assert.equal(registered.data.profileId, 'e2e-monitoring-0001');
			const [sent] = await sandbox.requests('POST /aml/ongoingMonitoring/registerIndividual');
			assert.deepEqual(sent.body, {
				profileId: 'e2e-monitoring-0001',
				names: ['Jane Doe', 'Jane Smith'],
				gender: 'FEMALE',
				dob: '1980/04/30',
				searchAll: true,
				fuzzySearch: false,
			});
			const removed = out('Remove Search Profile');
			assert.equal(removed.length, 1);
			assert.deepEqual(removed[0].data, { profileId: 'e2e-monitoring-0001', removed: true });
			const profiles = await sandbox.get('aml/profiles');
			assert.equal(profiles.some((p) => p.profileId === 'e2e-monitoring-0001'), false, 'the profile is gone');
		},
	},
	{
		key: 'amlSplitRecords',
		title: 'AML: check an individual with One Item per Record',
		steps: [
			{
				name: 'Check Individual',
				node: 'verificationAml',
				operation: 'checkIndividual',
				parameters: { name: '  max   MIXED ', options: { splitRecords: true } },
			},
		],
		check({ out }) {
			const records = out('Check Individual');
			assert.deepEqual(records.map((r) => r.sourceType).sort(), ['CRIMINAL', 'PEP', 'SANCTION']);
			for (const record of records) {
				assert.equal(record.screeningSummary.isHit, true);
				assert.equal(record.screeningSummary.totalHits, 3);
				assert.equal(record.search.totalHits, 3);
			}
		},
	},
	{
		key: 'kybProfiles',
		title: 'KYB: list all company profiles, 10 per page',
		steps: [
			{
				name: 'List Company Profiles',
				node: 'verificationKyb',
				operation: 'listCompanyProfiles',
				parameters: { returnAll: true, options: { pageSize: 10 } },
			},
		],
		async check({ out, sandbox }) {
			const profiles = out('List Company Profiles');
			assert.equal(profiles.length, 23, 'all 23 fixture profiles over 3 pages');
			assert.equal(profiles[0].id, 'kyb-profile-001');
			assert.equal(profiles[22].id, 'kyb-profile-023');
			assert.equal(profiles[0].profileList.data.pagination.total, 23);
			const pages = (await sandbox.requests('GET /KYB/companyProfile')).map((r) => r.query);
			assert.deepEqual(pages, [
				{ page: '1', limit: '10' },
				{ page: '2', limit: '10' },
				{ page: '3', limit: '10' },
			]);
		},
	},
	{
		key: 'kybCountries',
		title: 'KYB: list countries',
		steps: [{ name: 'List Countries', node: 'verificationKyb', operation: 'listCountries', parameters: {} }],
		check({ out }) {
			const countries = out('List Countries');
			assert.equal(countries.length, 15);
			const germany = countries.find((c) => c.countryCode === 'DE');
			assert.equal(germany.countryName, 'Germany');
			assert.equal(germany.countryList.version, '1.0.0');
		},
	},
	{
		key: 'phoneEmail',
		title: 'Phone: send an OTP by e-mail with own code and delivery language',
		steps: [
			{
				name: 'Send OTP by Email',
				node: 'verificationPhone',
				operation: 'sendOtp',
				parameters: {
					method: 'email',
					email: ' jane.doe@example.com ',
					additionalFields: { securityFactor: '482913', externalId: 'e2e-email-1', voiceLang: 'de_at' },
				},
			},
		],
		async check({ out, sandbox }) {
			const [sent] = out('Send OTP by Email');
			assert.match(sent.data.referenceId, /^[0-9a-f]{32}$/);
			assert.deepEqual(sent.data.recipient, { email: 'jane.doe@example.com' });
			const [request] = await sandbox.requests('POST /phone-service/verification').then((all) =>
				all.filter((r) => r.body && r.body.method === 'email'),
			);
			assert.deepEqual(request.body, {
				method: 'email',
				email: 'jane.doe@example.com',
				securityFactor: '482913',
				externalId: 'e2e-email-1',
				messageTemplate: { voiceLang: 'de-AT' },
			});
			const stored = await sandbox.get(`phone/${sent.data.referenceId}`);
			assert.equal(stored.otp, '482913');
		},
	},
	{
		key: 'phoneCheck',
		title: 'Phone: check OTP codes, the right one and a wrong one (an answer, not a failure)',
		steps: [
			{
				name: 'Send OTP',
				node: 'verificationPhone',
				operation: 'sendOtp',
				parameters: { method: 'sms', phoneNumber: '+49 151 1234 5678', additionalFields: { securityFactor: '271828' } },
			},
			{
				name: 'Two Attempts',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'manual',
					assignments: { assignments: [{ id: 'codes', name: 'codes', value: "={{ ['314159', '271828'] }}", type: 'array' }] },
					includeOtherFields: false,
					options: {},
				},
			},
			{
				name: 'One Item per Code',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'codes', include: 'noOtherFields', options: {} },
			},
			{
				name: 'Check OTP',
				node: 'verificationPhone',
				operation: 'checkOtp',
				parameters: { referenceId: "={{ $('Send OTP').first().json.data.referenceId }}", securityFactor: '={{ $json.codes }}' },
			},
		],
		async check({ out, sandbox }) {
			const [{ data }] = out('Send OTP');
			const checks = out('Check OTP');
			assert.deepEqual(
				checks.map((c) => [c.otpVerified, c.otpStatusCode, c.otpStatusDescription, c.data.referenceId]),
				[
					[false, 3905, 'Invalid security factor', data.referenceId],
					[true, 3900, 'Verified', data.referenceId],
				],
			);
			const requests = (await sandbox.requests('PATCH /phone-service/verification/:referenceId')).filter(
				(r) => r.params.referenceId === data.referenceId,
			);
			assert.deepEqual(requests.map((r) => r.body), [{ securityFactor: '314159' }, { securityFactor: '271828' }]);
			assert.equal(JSON.stringify(checks).includes('271828'), false, 'the code is in no output item');
		},
	},
	{
		key: 'qesSessionLink',
		title: 'QES: create a session link with sign and fill forms (placeholders sent as typed)',
		steps: [
			{
				name: 'Create Session Link',
				node: 'verificationQes',
				operation: 'createSessionLink',
				parameters: {
					email: 'erika.mustermann@example.com',
					phoneNumber: '+49 151 1234-5678',
					redirectUrl: 'https://example.com/onboarding/done',
					docUrl: 'https://example.com/contracts/contract.pdf',
					signForms: { form: [{ fieldId: 'signature1' }] },
					fillForm: {
						field: [
							{ fieldId: 'fullName', value: '${identification.firstName} ${identification.lastName}' },
							{ fieldId: 'doc', value: '=No. ${identification.documentDetails.number} ({{ 1 + 1 }})' },
						],
					},
				},
			},
		],
		async check({ out, sandbox }) {
			const [link] = out('Create Session Link');
			assert.match(link.requestId, /^qes-[0-9a-f]{16}$/);
			assert.equal(link.url, link.data.url);
			assert.equal(link.expiresAfter, link.data.expiresAfter);
			const [request] = (await sandbox.requests('POST /onboarding/createSessionLink')).filter((r) => r.body.email === 'erika.mustermann@example.com');
			assert.deepEqual(request.body, {
				email: 'erika.mustermann@example.com',
				phoneNumber: '+4915112345678',
				redirectUrl: 'https://example.com/onboarding/done',
				docUrl: 'https://example.com/contracts/contract.pdf',
				signForms: [{ fieldId: 'signature1', actorId: 'userToIdentify' }],
				fillForm: [
					{ fieldId: 'fullName', value: '${identification.firstName} ${identification.lastName}' },
					{ fieldId: 'doc', value: 'No. ${identification.documentDetails.number} (2)' },
				],
			});
			const session = await sandbox.get(`qes/sessions/${link.requestId}`);
			assert.equal(session.status, 'pending');
		},
	},
	{
		key: 'documentBase64',
		title: 'Document: open a journey, add a base64 selfie (store only), verify a maximum age',
		steps: [
			{ name: 'Open Journey', node: 'verificationDocument', operation: 'openJourney', parameters: {} },
			{
				name: 'Add Selfie',
				node: 'verificationDocument',
				operation: 'addImage',
				parameters: {
					journeyId: '={{ $json.journeyId }}',
					imageSide: 'selfie',
					imageSource: 'base64',
					imageData: PNG_DATA_URL,
					imageName: 'selfie.png',
					additionalFields: { storeOnly: true, passThroughData: '{"step": "selfie"}' },
				},
			},
			{
				name: 'Verify Maximum Age',
				node: 'verificationDocument',
				operation: 'verifyAge',
				parameters: { journeyId: "={{ $('Open Journey').item.json.journeyId }}", ageCondition: 'atMost', ageTo: 30 },
			},
		],
		async check({ out, sandbox }) {
			const [{ journeyId }] = out('Open Journey');
			const [added] = out('Add Selfie');
			assert.deepEqual(
				{ journeyId: added.journeyId, imageSide: added.imageSide, imageName: added.imageName, sizeBytes: added.sizeBytes },
				{ journeyId, imageSide: 'selfie', imageName: 'selfie.png', sizeBytes: 74 },
			);
			const journey = await sandbox.get(`journeys/${journeyId}`);
			assert.equal(journey.images.length, 1);
			assert.equal(journey.images[0].storeOnly, true);
			assert.deepEqual(journey.passThroughData, { step: 'selfie' });
			const [verified] = out('Verify Maximum Age');
			// The emulator's document subject is 34: "at most 30" fails.
			assert.deepEqual(verified, {
				journeyId,
				status: 'ageAndDisabilityVerificationComplete',
				ageResult: 'no',
				disabilityResult: 'eligible',
			});
			const [request] = (await sandbox.requests('POST /verify/age')).filter((r) => r.body.journeyId === journeyId);
			assert.deepEqual(request.body, { journeyId, ageTo: 30 });
		},
	},
	{
		key: 'qesDownload',
		title: 'QES: get a verification result and download the signed documents',
		steps: [
			{
				name: 'Get Verification Result',
				node: 'verificationQes',
				operation: 'getVerification',
				parameters: { sessionId: 'qes-completed-001', options: { downloadSignedDocuments: true } },
			},
		],
		check({ items }) {
			const [item] = items('Get Verification Result');
			assert.equal(item.json.data.isVerified, true);
			assert.equal(item.json.data.status, 'completed');
			assert.deepEqual(
				item.json.signedDocumentDownloads.map((d) => [d.downloaded, d.binaryPropertyName, d.fileName]),
				[[true, 'signedDocument0', 'qes-completed-001-signed.pdf']],
			);
			assert.ok(item.binary && item.binary.signedDocument0, 'binary signedDocument0 present');
			const file = item.binary.signedDocument0;
			assert.equal(file.mimeType, 'application/pdf');
			assert.equal(file.fileName, 'qes-completed-001-signed.pdf');
			assert.ok(file.fileSize, 'the file has a size');
			// n8n 1.x keeps small binaries inline (base64); 2.x stores them on disk ("filesystem-v2" + id).
			if (file.data && file.data !== 'filesystem-v2' && !file.id) {
				assert.match(Buffer.from(file.data, 'base64').toString('latin1'), /^%PDF-1\.4/);
			}
		},
	},
	{
		key: 'qesWebhook',
		title: 'QES: configure the webhook URL with an auth header',
		steps: [
			{
				name: 'Configure Webhook',
				node: 'verificationQes',
				operation: 'configureWebhook',
				parameters: {
					webhookUrl: 'https://hooks.example.com/qes/e2e',
					authHeader: { header: [{ name: 'X-E2E-Token', value: WEBHOOK_SECRET }] },
				},
			},
		],
		async check({ items, sandbox }) {
			const [item] = items('Configure Webhook');
			assert.equal(item.json.status, true);
			assert.equal(item.json.data.url, 'https://hooks.example.com/qes/e2e');
			assert.equal(JSON.stringify(item).includes(WEBHOOK_SECRET), false, 'the header value is not in the output');
			const webhook = await sandbox.get('webhook');
			assert.equal(webhook.url, 'https://hooks.example.com/qes/e2e');
			assert.deepEqual(webhook.metadata, { authHeader: { 'X-E2E-Token': WEBHOOK_SECRET } });
		},
	},
	// The address, identity and phone-intelligence operations.
	...require('./checks').CASES,
];

/** Full n8n node type of one of the package's nodes. */
const nodeType = (node) => `${PACKAGE}.${node}`;

/**
 * The workflow of one case: Manual Trigger, then the steps in order, all with `credential`.
 * @param {object} testCase  an entry of CASES
 * @param {{ id: string, credential: { id: string, name: string } }} options
 */
function caseWorkflow(testCase, { id, credential }) {
	const nodes = [
		{ id: `${id}-n0`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		...testCase.steps.map((step, i) =>
			step.type
				? // a core n8n node between the package's steps
					{ id: `${id}-n${i + 1}`, name: step.name, type: step.type, typeVersion: step.typeVersion, position: [(i + 1) * 220, 0], parameters: step.parameters }
				: {
						id: `${id}-n${i + 1}`,
						name: step.name,
						type: nodeType(step.node),
						typeVersion: 1,
						position: [(i + 1) * 220, 0],
						parameters: { operation: step.operation, ...step.parameters },
						credentials: { verificationServicesApi: credential },
						...(step.settings ?? {}),
					},
		),
	];
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: `e2e operation: ${testCase.title}`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/** [node, operation] pairs a workflow runs (nodes of this package only). */
function operationsOf(workflow) {
	const prefix = `${PACKAGE}.`;
	return workflow.nodes
		.filter((n) => n.type.startsWith(prefix) && n.parameters && n.parameters.operation)
		.map((n) => [n.type.slice(prefix.length), n.parameters.operation]);
}

module.exports = { CASES, PACKAGE, WEBHOOK_SECRET, caseWorkflow, nodeType, operationsOf };

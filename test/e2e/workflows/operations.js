'use strict';
// The operations the example workflows (examples/*.json) do not run, as a compact table: each case
// becomes one small workflow "Manual Trigger -> step -> step ...", run on every n8n version of the
// suite (test/e2e/operations.e2e.test.js), and its `check` asserts on the output.
//
// A case: { key, title, generations?, steps: [{ name, node, operation, parameters, settings? }], check(ctx) }
//   generations: true for the operations whose answers differ by API generation: the case runs
//              once against an emulator playing g2 and once against one playing g3, with the same check
//   node:      the node's internal name without the package prefix ('verificationAml', ...); a step
//              with `type` and `typeVersion` instead is a core n8n node (e.g. a Code node feeding items)
//   settings:  node-level settings beside `parameters` (executeOnce, ...)
//   check:     async ({ out, items, sandbox, generation, answer, show }) => void, throws (node:assert) on a wrong result
//     out(stepName)    the step's output items' json (main output 0 of its first run)
//     items(stepName)  the same items whole (json, binary, pairedItem)
//     sandbox          { requests(routeKey), get(controlPath) }: the emulator's request log and
//                      control routes (GET /__control/<controlPath>)
//     generation       'g2' or 'g3': the generation the emulator played
//     answer(json)     the API's own answer in an output item: the item (g2) or its `data` (g3)
//     show(label, { request, output })  logs what was sent and what the node made of the answer
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
		title: 'AML: register individuals for monitoring (names, or searchAll instead), then remove a search profile',
		generations: true,
		steps: [
			{
				name: 'Register Individual',
				node: 'verificationAml',
				operation: 'registerIndividual',
				parameters: {
					profileId: 'e2e-monitoring-0001',
					names: 'Jane Doe',
					additionalFields: { gender: 'female', dob: '1980-04-30', fuzzySearch: true },
				},
			},
			{
				name: 'Register with Search All',
				node: 'verificationAml',
				operation: 'registerIndividual',
				parameters: { profileId: 'e2e-monitoring-0002', searchAll: true, names: 'Not Sent' },
			},
			{
				name: 'Remove Search Profile',
				node: 'verificationAml',
				operation: 'removeSearchProfile',
				parameters: { profileId: "={{ $('Register Individual').item.json.profileId }}" },
			},
		],
		async check({ out, sandbox, generation, show }) {
			const bodies = (await sandbox.requests('POST /aml/ongoingMonitoring/registerIndividual')).map((r) => r.body);
			assert.deepEqual(bodies, [
				{ profileId: 'e2e-monitoring-0001', names: 'Jane Doe', gender: 'female', dob: '1980/04/30', fuzzySearch: 'true' },
				{ profileId: 'e2e-monitoring-0002', searchAll: 'true' },
			]);
			const [registered] = out('Register Individual');
			const [all] = out('Register with Search All');
			assert.equal(registered.profileId, 'e2e-monitoring-0001');
			assert.equal(all.profileId, 'e2e-monitoring-0002');
			if (generation === 'g3') assert.equal(registered.data.profileId, 'e2e-monitoring-0001');
			else assert.deepEqual(registered, { success: true, profileId: 'e2e-monitoring-0001' });
			show('registerIndividual', { request: bodies, output: [registered, all] });

			const [removeRequest] = await sandbox.requests('POST /aml/ongoingMonitoring/removeSearchProfile');
			assert.deepEqual(removeRequest.body, { profileId: 'e2e-monitoring-0001' });
			const [removed] = out('Remove Search Profile');
			assert.deepEqual(removed, generation === 'g3' ? { status: true, data: { profileId: 'e2e-monitoring-0001', removed: true } } : { success: true });
			show('removeSearchProfile', { request: removeRequest.body, output: removed });
			const profiles = await sandbox.get('aml/profiles');
			assert.deepEqual(profiles.map((p) => p.profileId), ['e2e-monitoring-0002'], 'the first profile is gone, the second stays');
		},
	},
	{
		key: 'amlSplitRecords',
		title: 'AML: check an individual with One Item per Record',
		generations: true,
		steps: [
			{
				name: 'Check Individual',
				node: 'verificationAml',
				operation: 'checkIndividual',
				parameters: { name: '  max   MIXED ', options: { splitRecords: true } },
			},
		],
		async check({ out, sandbox, show }) {
			const records = out('Check Individual');
			assert.deepEqual(records.map((r) => r.sourceType).sort(), ['CRIMINAL', 'PEP', 'SANCTION']);
			for (const record of records) {
				assert.deepEqual(record.screeningSummary, { shape: 'list', isHit: true, totalHits: 3, hitsBySourceType: { SANCTION: 1, PEP: 1, CRIMINAL: 1 } });
				assert.equal(record.search.totalHits, 3);
				assert.equal(record.search.name, '  max   MIXED ');
			}
			const [request] = (await sandbox.requests('POST /aml/checkIndividual')).filter((r) => r.body.name === '  max   MIXED ');
			assert.deepEqual(request.body, { name: '  max   MIXED ' });
			show('checkIndividual (list, one item per record)', { request: request.body, output: records.map((r) => ({ id: r.id, screeningSummary: r.screeningSummary })) });
		},
	},
	{
		key: 'amlConstraints',
		title: 'AML: check an individual with search constraints (the newer request form)',
		generations: true,
		steps: [
			{
				name: 'Check with Constraints',
				node: 'verificationAml',
				operation: 'checkIndividual',
				parameters: { name: 'Viktor Sanctioned', dob: '1970-01-15', additionalFields: { countries: 'by, ge', threshold: 0.9 } },
			},
		],
		async check({ out, sandbox, generation, show }) {
			const [request] = (await sandbox.requests('POST /aml/checkIndividual')).filter((r) => r.body.countries !== undefined);
			assert.deepEqual(request.body, { name: 'Viktor Sanctioned', threshold: 0.9, countries: 'BY,GE', dateOfBirth: '1970-01-15' });
			const [checked] = out('Check with Constraints');
			if (generation === 'g3') {
				assert.deepEqual(checked.screeningSummary, { shape: 'profile', isHit: true });
				assert.equal(checked.data.matchFound, true);
				assert.equal(checked.data.profile.id, 'AML-SAN-0001');
			} else {
				// The older generation knows no constraints and answers the list: read as a list.
				assert.deepEqual(checked.screeningSummary, { shape: 'list', isHit: true, totalHits: 3, hitsBySourceType: { SANCTION: 3, PEP: 0, CRIMINAL: 0 } });
			}
			show('checkIndividual (search constraints)', { request: request.body, output: { screeningSummary: checked.screeningSummary } });
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
		key: 'kybDocuments',
		title: 'KYB: search by registration number, details by companyId alone, every linkToken split out into Retrieve Document',
		generations: true,
		steps: [
			{
				name: 'Search by Registration Number',
				node: 'verificationKyb',
				operation: 'search',
				parameters: { name: 'Acme', registrationNumber: 'HRB 123456', options: {} },
			},
			{
				name: 'Get Company Details',
				node: 'verificationKyb',
				operation: 'getDetails',
				parameters: { companyId: '={{ $json.companyId }}', include: ['documents', 'transparency'], additionalFields: {}, options: {} },
			},
			{
				name: 'Split Out Document Links',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'linkTokens', include: 'noOtherFields', options: {} },
			},
			{
				name: 'Retrieve Document',
				node: 'verificationKyb',
				operation: 'retrieveDocument',
				parameters: { options: { binaryPropertyName: 'document' } },
			},
		],
		async check({ out, items, sandbox, generation, answer, show }) {
			const [search] = (await sandbox.requests('POST /kyb/search')).filter((r) => r.body.registrationNumber !== undefined);
			assert.deepEqual(search.body, { name: 'Acme', registrationNumber: 'HRB 123456' });
			const found = out('Search by Registration Number');
			assert.deepEqual(found.map((c) => c.companyId), ['DE-HRB-123456']);
			show('search', { request: search.body, output: found.map((c) => ({ companyId: c.companyId, transactionId: c.transactionId, search: c.search })) });

			const [details] = (await sandbox.requests('POST /kyb/company/details')).filter((r) => r.body.companyId === 'DE-HRB-123456');
			assert.deepEqual(details.body, { companyId: 'DE-HRB-123456', include: { documents: true, transparency: true } });
			const [record] = out('Get Company Details');
			assert.equal(record.status, generation === 'g3' ? true : 'success');
			assert.equal(record.data.company.legalName, 'Acme Holdings GmbH');
			const tokens = ['lt-DE-HRB-123456-ubo-1', 'lt-DE-HRB-123456-register-extract', 'lt-DE-HRB-123456-articles'];
			assert.deepEqual(record.linkTokens.map((t) => [t.linkToken, t.package]), [
				[tokens[0], 'transparency'],
				[tokens[1], 'documents'],
				[tokens[2], 'documents'],
			]);
			show('getDetails', { request: details.body, output: { status: record.status, linkTokens: record.linkTokens } });

			const retrievals = (await sandbox.requests('POST /kyb/company/document/retrieve')).filter((r) => r.body.linkToken.startsWith('lt-DE-'));
			assert.deepEqual(retrievals.map((r) => r.body), tokens.map((linkToken) => ({ linkToken })));
			const [entry, extract, articles] = items('Retrieve Document');
			assert.equal(answer(entry.json).entry.name, 'Erika Musterfrau');
			assert.equal(entry.binary, undefined, 'a JSON answer stays JSON');
			for (const [item, fileName] of [
				[extract, 'DE-HRB-123456-DOC-1.pdf'],
				[articles, 'DE-HRB-123456-DOC-2.pdf'],
			]) {
				assert.equal(item.json.fileName, fileName);
				assert.equal(item.json.mimeType, 'application/pdf');
				assert.ok(item.json.sizeBytes > 300, 'the PDF has its bytes');
				assert.equal(item.binary.document.mimeType, 'application/pdf');
				assert.equal(item.binary.document.fileName, fileName);
				// n8n 1.x keeps small binaries inline (base64); 2.x stores them on disk (an id instead of data).
				if (item.binary.document.data && !item.binary.document.id && item.binary.document.data !== 'filesystem-v2') {
					assert.match(Buffer.from(item.binary.document.data, 'base64').toString('latin1'), /^%PDF-1\.4/);
				}
			}
			show('retrieveDocument', { request: retrievals.map((r) => r.body), output: [entry.json, extract.json, articles.json] });
		},
	},
	{
		key: 'phoneEmail',
		title: 'Phone: send an OTP by e-mail with own code and delivery language',
		generations: true,
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
		async check({ out, sandbox, answer, show }) {
			const [sent] = out('Send OTP by Email');
			assert.match(sent.referenceId, /^[0-9a-f]{32}$/);
			assert.deepEqual(sent.recipient, { email: 'jane.doe@example.com' });
			assert.equal(answer(sent).referenceId, sent.referenceId);
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
			const stored = await sandbox.get(`phone/${sent.referenceId}`);
			assert.equal(stored.otp, '482913');
			assert.equal(JSON.stringify(sent).includes('482913'), false, 'the own code is in no output');
			show('sendOtp', { request: { ...request.body, securityFactor: '[set]' }, output: sent });
		},
	},
	{
		key: 'phoneCheck',
		title: 'Phone: check OTP codes, the right one and a wrong one (an answer, not a failure)',
		generations: true,
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
				parameters: { referenceId: "={{ $('Send OTP').first().json.referenceId }}", securityFactor: '={{ $json.codes }}' },
			},
		],
		async check({ out, sandbox, show }) {
			const [{ referenceId }] = out('Send OTP');
			const checks = out('Check OTP');
			assert.deepEqual(
				checks.map((c) => [c.otpVerified, c.otpStatusCode, c.otpStatusDescription, c.referenceId]),
				[
					[false, 3905, 'Invalid security factor', referenceId],
					[true, 3900, 'Verified', referenceId],
				],
			);
			const requests = (await sandbox.requests('PATCH /phone-service/verification/:referenceId')).filter((r) => r.params.referenceId === referenceId);
			assert.deepEqual(requests.map((r) => r.body), [{ securityFactor: '314159' }, { securityFactor: '271828' }]);
			assert.equal(JSON.stringify(checks).includes('271828'), false, 'the code is in no output item');
			show('checkOtp', { request: requests.map((r) => ({ path: r.path, body: { securityFactor: '[code]' } })), output: checks });
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
	// The hosted identity journey and payments by bank.
	...require('./hosted').CASES,
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

import type { IDataObject, IExecuteFunctions, INodeParameters, INodeProperties, INodeType, OnError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { amlResource } from '../../nodes/VerificationServices/aml/operations';
import { checkIndividual } from '../../nodes/VerificationServices/aml/operations/checkIndividual';
import { phoneResource } from '../../nodes/VerificationServices/phone/operations';
import { sendOtp } from '../../nodes/VerificationServices/phone/operations/sendOtp';
import { challengeDeposit } from '../../nodes/VerificationServices/payments/operations/challengeDeposit';
import { toolDescriptionOf, toolOutput } from '../../nodes/shared/operation/tool-output';
import { actionNode, actionTool, succeeded, useSandbox, GENERATIONS, playing } from '../helpers/sandbox';

const sandbox = useSandbox();

/** Runs the action node, or its variant an AI agent is given (actionTool), on the resource. */
async function run(node: INodeType, resource: string, parameters: INodeParameters, onError?: OnError) {
	return await sandbox().run(node, { resource, ...parameters }, { onError });
}

describe.each(GENERATIONS)('KYB against %s as an AI tool', (generation) => {
	playing(sandbox, generation);

	it('summarises a company record: who it is, who runs and owns it, the document tokens', async () => {
		const found = await run(actionNode, 'kyb', { operation: 'search', name: 'Acme', country: 'DE' });
		const { transactionId, companyId } = found.items[0].json as { transactionId: string; companyId: string };
		const include = ['officers', 'addresses', 'ownerships', 'transparency', 'documents', 'financials'];
		const items = succeeded(await run(actionTool, 'kyb', { operation: 'getDetails', transactionId, companyId, include }));
		const json = items[0].json;
		expect(json.company).toMatchObject({ legalName: 'Acme Holdings GmbH', status: 'active', country: 'DE' });
		expect(json.officers).toEqual([
			{ name: 'Erika Musterfrau', role: 'Managing Director', dob: '1976-02-11', nationality: 'DE' },
			{ name: 'Hans Beispiel', role: 'Authorised Signatory', dob: '1983-09-30', nationality: 'AT' },
		]);
		expect((json.documents as IDataObject[]).map((d) => d.linkToken)).toEqual(['lt-DE-HRB-123456-register-extract', 'lt-DE-HRB-123456-articles']);
		expect(json).toMatchObject({ addressCount: 2, latestFinancials: { year: 2023 } });
		// The newer generation names the transaction and the packages in its metadata.
		expect(json.transactionId).toBe(generation === 'g3' ? transactionId : undefined);
		expect(json.addresses).toBeUndefined();
	});
});

describe('AML, KYB and QES as AI tools', () => {
	it('AML Check Individual still stops the run on a validation failure when the node is set to On Error: Stop Workflow', async () => {
		const { items, error } = await run(actionTool, 'aml', { operation: 'checkIndividual', name: 'Viktor Sanctioned', dob: '15.01.1970' }, 'stopWorkflow');
		expect(items).toHaveLength(0);
		expect(error).toBeInstanceOf(NodeOperationError);
	});

	it('tells the model that a search found nothing, instead of an empty answer', async () => {
		const items = succeeded(await run(actionTool, 'kyb', { operation: 'search', name: 'Zzyzx Nonexistent Holdings' }));
		expect(items.map((i) => i.json)).toEqual([{ resultCount: 0, note: 'The request succeeded and returned no results.' }]);
		const plain = await run(actionNode, 'kyb', { operation: 'search', name: 'Zzyzx Nonexistent Holdings' });
		expect(plain.items).toEqual([]);
	});

	it('never gives the model a signed document or its pre-signed URL, only the file names', async () => {
		const items = succeeded(await run(actionTool, 'qes', {
			operation: 'getVerification',
			sessionId: 'qes-completed-001',
			options: { downloadSignedDocuments: true },
		}));
		const [item] = items;
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			isVerified: true,
			status: 'completed',
			identification: { status: 'completed', person: { firstName: 'Erika', lastName: 'Mustermann' } },
			signatures: [{ id: 'sig-qes-completed-001', status: 'COMPLETED', signedFile: { filename: 'qes-completed-001-signed.pdf' } }],
		});
		expect(item.json.files).toEqual([
			expect.objectContaining({ binaryProperty: 'signedDocument0', fileName: 'qes-completed-001-signed.pdf', mimeType: 'application/pdf' }),
		]);
		expect(JSON.stringify(item.json)).not.toMatch(/resourceUrl|\/files\/signed\//);
	});
});

describe('tool output, generic rules', () => {
	const ctxFor = (parameters: IDataObject = {}) =>
		({
			getNodeParameter: (name: string, _index: number, fallback: unknown) => parameters[name] ?? fallback,
		}) as unknown as IExecuteFunctions;
	const base64 = Buffer.alloc(3000, 7).toString('base64');

	// Only a tool run's output goes through toolOutput (run-operations.ts): a plain run's kept whole is in 'KYB and QES as AI tools'.
	it('replaces file content inside json with its size', () => {
		const items = [{ json: { image: base64, dataUrl: `data:image/png;base64,${base64}`, note: 'short text' }, pairedItem: { item: 0 } }];
		const [asTool] = toolOutput(ctxFor(), sendOtp, items);
		expect(asTool.json).toEqual({
			image: `[file content omitted: ${base64.length} characters]`,
			dataUrl: `[file content omitted: ${base64.length + 22} characters]`,
			note: 'short text',
		});
	});

	it('caps a long list at 20 items with a closing note in Summary mode', () => {
		const items = Array.from({ length: 25 }, (_, i) => ({ json: { i }, pairedItem: { item: 0 } }));
		const summary = toolOutput(ctxFor(), sendOtp, items);
		expect(summary).toHaveLength(21);
		expect(summary[20].json.note).toBe('5 more results not shown (25 in all). Narrow the request to see them.');
		expect(toolOutput(ctxFor({ toolOutput: 'full' }), sendOtp, items)).toHaveLength(25);
	});
});

describe('Selected Fields: the model reads only the fields the builder lists', () => {
	const ctxFor = (toolFields: string) =>
		({
			getNodeParameter: (name: string, _index: number, fallback: unknown) => ({ toolOutput: 'fields', toolFields })[name] ?? fallback,
		}) as unknown as IExecuteFunctions;
	const deposit = { transactionId: 'T-1', status: 'OK', globalResult: { overall: 'review', totalScore: 100 }, iban: 'DE89', warning: 'name differs', officers: [{ name: 'A', dob: '1970' }, { name: 'B' }] };

	it.each([
		['top-level and dotted paths, at their place', 'status, globalResult.overall', { status: 'OK', globalResult: { overall: 'review' } }],
		['a path through a list picks from each entry', 'officers.name', { officers: [{ name: 'A' }, { name: 'B' }] }],
		['a path that is not there is left out', 'nothing.here, iban', { iban: 'DE89' }],
		['blank entries are ignored', ' , iban ,', { iban: 'DE89' }],
	])('%s', (_case, toolFields, expected) => {
		const [item] = toolOutput(ctxFor(toolFields), challengeDeposit, [{ json: deposit, pairedItem: { item: 0 } }]);
		// The receipt of the money sent (transactionId) and a warning are never dropped.
		expect(item.json).toEqual({ ...expected, transactionId: 'T-1', warning: 'name differs' });
	});

	it('passes an error item whole', () => {
		const failed = { json: { error: 'Refused', description: 'The IBAN is invalid', httpCode: '400' }, pairedItem: { item: 0 } };
		expect(toolOutput(ctxFor('status'), challengeDeposit, [failed])[0].json).toEqual(failed.json);
	});
});

describe('tool parameters', () => {
	/** The parameters only the Tool variant shows, of one resource or (undefined) of every resource. */
	const toolParameters = (resource?: string) =>
		actionNode.description.properties.filter(
			(p: INodeProperties) => p.displayOptions?.show?.['@tool'] && p.displayOptions.show.resource?.[0] === resource,
		);

	it('each operation has a tool description from its table, shown only in the Tool variant', () => {
		const descriptions = toolParameters('phone').filter((p) => p.name === 'toolDescription');
		expect(descriptions.map((p) => p.displayOptions?.show?.operation)).toEqual(phoneResource.operations.map((operation) => [operation.value]));
		expect(descriptions[0]).toMatchObject({ default: toolDescriptionOf(sendOtp), displayOptions: { show: { '@tool': [true], resource: ['phone'], operation: ['sendOtp'] } } });
		expect(toolDescriptionOf(sendOtp)).toMatch(/^SENDS A MESSAGE: sends a one-time password/);
		const aml = toolParameters('aml');
		expect(aml.map((p) => p.name)).toEqual([...amlResource.operations.map(() => 'toolDescription'), 'humanReviewNotice', 'runWithoutHumanReview']);
		expect(aml[0].default).toBe(checkIndividual.toolDescription);
		expect(toolParameters(undefined).map((p) => p.name)).toEqual(['toolOutput', 'toolFields']);
	});

	it('names its modes as n8n’s own nodes do, Simplified, Raw and Selected Fields, with the values saved workflows hold', () => {
		const { properties } = actionNode.description;
		const output = properties.find((p) => p.name === 'toolOutput') as INodeProperties;
		expect(output.displayName).toBe('Output');
		expect((output.options as Array<{ name: string; value: string }>).map((o) => [o.name, o.value])).toEqual([
			['Simplified', 'summary'],
			['Raw', 'full'],
			['Selected Fields', 'fields'],
		]);
		expect(output.default).toBe('summary');
		const fields = properties.find((p) => p.name === 'toolFields') as INodeProperties;
		expect(fields).toMatchObject({ displayName: 'Fields', type: 'string', displayOptions: { show: { '@tool': [true], toolOutput: ['fields'] } } });
	});
});

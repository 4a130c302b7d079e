/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code, never published: n8n's rules for node runtime code do not apply */
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import type { OperationDefinition } from '../../nodes/shared/operation/operation-types';
import { simplifier } from '../../nodes/shared/operation/simplify';
import { toolOutput } from '../../nodes/shared/operation/tool-output';
import { GENERATIONS, actionNode, startSandbox } from '../../test/helpers/sandbox';
import { everyAnswer, fieldCount } from '../../test/helpers/every-answer';
import { nodeTypeName } from '../../test/helpers/node-types';

// What a model receives per tool call, Simplified vs Raw, for every operation of the action node, and
// each answer's fields before and after Simplify: the answers the emulator plays in both API
// generations, put through the node's own toolOutput. n8n hands the model JSON.stringify of each output
// item's json (n8n-nodes-langchain buildSteps), so that is what is counted.

const OUT = join(__dirname, '..', '.work', 'model-characters.md');

const asTool = (output: string) =>
	({
		getNode: () => ({ type: `${nodeTypeName(actionNode)}Tool` }) as INode,
		getNodeParameter: (name: string, _index: number, fallback: unknown) => (name === 'toolOutput' ? output : fallback),
	}) as unknown as IExecuteFunctions;

const characters = (items: INodeExecutionData[]) => items.reduce((n, item) => n + JSON.stringify(item.json).length, 0);

function fields(op: OperationDefinition, items: INodeExecutionData[]): string {
	const most = (jsons: IDataObject[]) => Math.max(...jsons.map(fieldCount));
	const whole = most(items.map((i) => i.json));
	const simplify = simplifier(op);
	return simplify ? `${whole} -> ${most(items.map((i) => simplify(i.json)))}` : `${whole}`;
}

it('measures the characters a model receives per tool call and the fields Simplify keeps', async () => {
	const sandbox = await startSandbox();
	const rows: string[][] = [];
	try {
		for (const generation of GENERATIONS) {
			await sandbox.reset();
			await sandbox.configure({ generation });
			for (const answer of await everyAnswer(sandbox)) {
				const simplified = characters(toolOutput(asTool('summary'), answer.definition, answer.items));
				const raw = characters(toolOutput(asTool('full'), answer.definition, answer.items));
				rows.push([generation, answer.resource.name, answer.definition.name, String(answer.items.length), fields(answer.definition, answer.items), String(raw), String(simplified), `${Math.round((100 * simplified) / raw)} %`]);
			}
		}
	} finally {
		await sandbox.close();
	}
	// Add Image runs three times (front, back, selfie): one row.
	const unique = rows.filter((row, i) => rows.findIndex((r) => r.slice(0, 3).join() === row.slice(0, 3).join()) === i);
	const table = [
		'| API | Resource | Operation | Items | Fields (whole -> Simplify) | Characters, Raw | Characters, Simplified | Simplified / Raw |',
		'| --- | --- | --- | ---: | --- | ---: | ---: | ---: |',
		...unique.map((r) => `| ${r.join(' | ')} |`),
	].join('\n');
	mkdirSync(join(__dirname, '..', '.work'), { recursive: true });
	writeFileSync(OUT, `## What a model receives per tool call, and the fields Simplify keeps\n\n${table}\n`);
	process.stdout.write(`${table}\n`);
	expect(unique.length).toBeGreaterThan(20);
});

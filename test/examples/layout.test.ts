/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

/**
 * The example workflows are the first thing a user opens: no sticky note may cover a node or its label.
 * n8n draws a node as a ~100x100 box at its position with its name (and subtitle) centred below it,
 * wider than the box; a sticky note is the rectangle `width` x `height` at its position.
 */
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const NODE = 100;
const LABEL = { overhang: 40, height: 60 }; // name + subtitle, up to ~180 px wide

interface Rect {
	left: number;
	top: number;
	right: number;
	bottom: number;
}
interface WorkflowNode {
	name: string;
	type: string;
	position: [number, number];
	parameters: { width?: number; height?: number };
}

const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

export function layoutProblems(nodes: WorkflowNode[]): string[] {
	const notes = nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
	const steps = nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
	const problems: string[] = [];
	for (const note of notes) {
		const [x, y] = note.position;
		const rect = { left: x, top: y, right: x + (note.parameters.width ?? 240), bottom: y + (note.parameters.height ?? 160) };
		for (const step of steps) {
			const [sx, sy] = step.position;
			const box = { left: sx, top: sy, right: sx + NODE, bottom: sy + NODE };
			const label = { left: sx - LABEL.overhang, top: sy + NODE, right: sx + NODE + LABEL.overhang, bottom: sy + NODE + LABEL.height };
			if (overlaps(rect, box)) problems.push(`"${note.name}" covers node "${step.name}"`);
			else if (overlaps(rect, label)) problems.push(`"${note.name}" covers the label of "${step.name}"`);
		}
	}
	return problems;
}

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json') && !f.startsWith('credentials'));

describe('example workflows: canvas layout', () => {
	it('finds the examples', () => expect(files.length).toBeGreaterThanOrEqual(5));

	it.each(files)('%s: no sticky note covers a node or its label', (file) => {
		const workflow = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: WorkflowNode[] };
		expect(layoutProblems(workflow.nodes)).toEqual([]);
	});

	it('sees a note over a node and over a label', () => {
		const note = (x: number, y: number): WorkflowNode => ({ name: 'N', type: 'n8n-nodes-base.stickyNote', position: [x, y], parameters: { width: 200, height: 100 } });
		const step: WorkflowNode = { name: 'S', type: 'n8n-nodes-base.set', position: [0, 0], parameters: {} };
		expect(layoutProblems([note(50, 50), step])).toEqual(['"N" covers node "S"']);
		expect(layoutProblems([note(-150, 120), step])).toEqual(['"N" covers the label of "S"']);
		expect(layoutProblems([note(0, 170), step])).toEqual([]);
	});
});

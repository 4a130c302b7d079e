/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

// What a newcomer reads before adding an operation (CONTRIBUTING.md, "Adding an operation"): under 400
// lines, or adding an operation has become heavier than n8n's own nodes make it.
const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const lines = (text: string) => text.trimEnd().split('\n').length;
/** A Markdown section: its heading line up to the next heading of the same or a higher level. */
function section(file: string, heading: string): string {
	const text = read(file);
	const start = text.indexOf(`\n${heading}\n`);
	if (start === -1) throw new Error(`${file} has no heading "${heading}"`);
	const level = heading.split(' ')[0];
	const rest = text.slice(start + 1);
	const next = rest.slice(heading.length).search(new RegExp(`\\n#{1,${level.length}} `));
	return next === -1 ? rest : rest.slice(0, heading.length + next);
}

describe('what a newcomer reads before adding an operation', () => {
	const guide = section('CONTRIBUTING.md', '## Adding an operation');
	const readFirst = guide.slice(guide.indexOf('Read first')).split('\n\n')[0];
	const files = [...readFirst.matchAll(/`(nodes\/[^`]+\.ts)`/g)].map((m) => m[1]);

	it('is the guide, the design section it links and the files it names, under 400 lines', () => {
		expect(files).toEqual(expect.arrayContaining(['nodes/shared/operation/operation-types.ts', 'nodes/shared/fields/field-types.ts']));
		const counts = [lines(guide), lines(section('docs/design.md', '## An operation')), ...files.map((file) => lines(read(file)))];
		expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(400);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { readFileSync } from 'fs';
import { join } from 'path';

// CHANGELOG.md in Keep a Changelog form (https://keepachangelog.com/en/1.1.0/): "Unreleased" on top,
// then the releases newest first with their dates, the six kinds of change, a link for every version.
const changelog = readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8');
const lines = changelog.split('\n');
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

describe('CHANGELOG.md', () => {
	const versions = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));

	it('keeps "Unreleased" on top, then releases with their dates, newest first', () => {
		expect(lines[0]).toBe('# Changelog');
		expect(versions[0]).toBe('[Unreleased]');
		const released = versions.slice(1).map((v) => /^\[(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}$/.exec(v));
		expect(released.every(Boolean)).toBe(true);
		const numbers = released.map((m) => m!.slice(1, 4).map(Number));
		const newerFirst = numbers.every((n, i) => i === 0 || n[0] * 1e6 + n[1] * 1e3 + n[2] < numbers[i - 1][0] * 1e6 + numbers[i - 1][1] * 1e3 + numbers[i - 1][2]);
		expect(newerFirst).toBe(true);
	});

	it('sorts changes under the six kinds only', () => {
		const kinds = lines.filter((l) => l.startsWith('### ')).map((l) => l.slice(4));
		expect(kinds.filter((k) => !KINDS.includes(k))).toEqual([]);
	});

	it('links every version', () => {
		for (const version of versions.map((v) => /^\[([^\]]+)\]/.exec(v)![1])) {
			expect(changelog).toMatch(new RegExp(`^\\[${version.replace(/\./g, '\\.')}\\]: https://github\\.com/`, 'm'));
		}
	});
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { announceInstall, USUAL } = require('../../scripts/lib/install-progress') as {
	announceInstall: (
		state: { installed: boolean; n8nVersion?: string },
		options: { root: string; log: (message: string) => void; intervalMs?: number },
	) => (() => void) | undefined;
	USUAL: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start while n8n installs (scripts/lib/install-progress.js)', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), 'install-progress-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('reuses the n8n that npm test installed, and says so', () => {
		const lines: string[] = [];
		const stop = announceInstall({ installed: true, n8nVersion: '2.40.7' }, { root, log: (m) => lines.push(m) });
		expect(stop).toBeUndefined();
		expect(lines).toEqual(['n8n 2.40.7 already installed in test/e2e/n8n-v2 (shared with npm test)']);
	});

	it('on a fresh clone: says what it installs, how long that usually takes, and shows progress until done', async () => {
		const lines: string[] = [];
		const stop = announceInstall({ installed: false }, { root, log: (m) => lines.push(m), intervalMs: 40 });
		expect(lines[0]).toBe(`installing n8n into test/e2e/n8n-v2 (shared with npm test): npm ci of ~1000 packages, then a build of sqlite3; ${USUAL}`);
		await sleep(150);
		expect(lines.length).toBeGreaterThanOrEqual(3);
		for (const line of lines.slice(1)) expect(line).toMatch(/^still installing n8n\.\.\. \d+ s$/);
		stop?.();
		const shown = lines.length;
		await sleep(120);
		expect(lines.length).toBe(shown);
	});

	it("names the duration of this machine's last install (an outdated v2, or v1)", () => {
		const dir = join(root, 'test/e2e/n8n-v1/node_modules');
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, '.e2e-install.json'), JSON.stringify({ n8nVersion: '1.123.81', timings: { totalMs: 169_400, npmMs: 111_000, sqlite3Ms: 58_200 } }));
		const lines: string[] = [];
		announceInstall({ installed: false }, { root, log: (m) => lines.push(m), intervalMs: 60_000 })?.();
		expect(lines).toEqual([
			'installing n8n into test/e2e/n8n-v2 (shared with npm test): npm ci of ~1000 packages, then a build of sqlite3; the last install here (n8n 1.123.81) took 169 s: npm 111 s, sqlite3 58 s',
		]);
	});
});

/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * The n8n installs of `npm test` and `npm start` finish or fail in a known time when the registry goes
 * silent: the real bun that installs them, from an npm lockfile, against a local registry whose tarball
 * request never answers.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { npmInstall } = require('../e2e/lib/npm-install') as {
	npmInstall: (
		dir: string,
		options: { command: 'bun'; label: string; log: (line: string) => void; env: Record<string, string>; idleTimeoutMs: number; attempts: number },
	) => Promise<number>;
};

const IDLE_MS = 3000;

describe('the install of the n8n runtimes against a registry that goes silent', () => {
	let work: string;
	let tarball: Buffer;
	let integrity: string;
	let server: Server;
	let registry: string;
	let tarballRequests: number;
	let silentRequests: number;
	const held: ServerResponse[] = [];

	beforeAll(async () => {
		work = mkdtempSync(join(tmpdir(), 'npm-install-test-'));
		const source = join(work, 'source');
		mkdirSync(source);
		writeFileSync(join(source, 'package.json'), JSON.stringify({ name: 'stall-probe', version: '1.0.0' }));
		const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], {
			cwd: source,
			stdio: ['ignore', 'pipe', 'ignore'],
		})
			.toString()
			.trim();
		tarball = readFileSync(join(work, packed));
		integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
		server = createServer((req, res) => {
			if (req.url === '/stall-probe') {
				res.setHeader('content-type', 'application/json');
				res.end(
					JSON.stringify({
						name: 'stall-probe',
						'dist-tags': { latest: '1.0.0' },
						versions: { '1.0.0': { name: 'stall-probe', version: '1.0.0', dist: { tarball: `${registry}stall-probe/-/stall-probe-1.0.0.tgz`, integrity } } },
					}),
				);
			} else if (req.url === '/stall-probe/-/stall-probe-1.0.0.tgz') {
				tarballRequests++;
				if (tarballRequests <= silentRequests) held.push(res);
				else res.end(tarball);
			} else {
				res.statusCode = 404;
				res.end('{}');
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	});

	afterAll(async () => {
		for (const res of held) res.destroy();
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
		rmSync(work, { recursive: true, force: true });
	});

	function project(name: string) {
		const dir = join(work, name);
		mkdirSync(dir);
		const dependencies = { 'stall-probe': '1.0.0' };
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, dependencies }));
		const probe = { version: '1.0.0', resolved: `${registry}stall-probe/-/stall-probe-1.0.0.tgz`, integrity };
		writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name, lockfileVersion: 3, requires: true, packages: { '': { name, dependencies }, 'node_modules/stall-probe': probe } }));
		// Each project its own cache: nothing fetched by another case answers for the registry.
		return { dir, env: { NPM_CONFIG_REGISTRY: registry, BUN_INSTALL_CACHE_DIR: join(dir, '.bun-cache') } };
	}

	test('an attempt that prints nothing is ended and the next one installs', async () => {
		tarballRequests = 0;
		silentRequests = 1;
		const { dir, env } = project('recovers');
		const lines: string[] = [];
		const attempts = await npmInstall(dir, { command: 'bun', label: 'probe', log: (line) => lines.push(line), env, idleTimeoutMs: IDLE_MS, attempts: 3 });

		expect(attempts).toBe(2);
		expect(tarballRequests).toBe(2);
		expect(lines).toEqual([expect.stringMatching(/^probe: bun install printed nothing for 3 s \(its last line: .*\); attempt 2 of 3$/)]);
		expect(JSON.parse(readFileSync(join(dir, 'node_modules', 'stall-probe', 'package.json'), 'utf8')).version).toBe('1.0.0');
	}, 60000);

	test('when every attempt stalls, the error names each attempt and no bun is left running', async () => {
		tarballRequests = 0;
		silentRequests = Infinity;
		const { dir, env } = project('gives-up');
		const error: Error = await npmInstall(dir, { command: 'bun', label: 'probe', log: () => {}, env, idleTimeoutMs: IDLE_MS, attempts: 2 }).catch((e) => e);

		expect(error.message).toMatch(/^probe: bun install, attempt 2 of 2: \S+\/bun install .* printed nothing for 3 s/);
		expect(error.message).toMatch(/\nattempt 1: printed nothing for 3 s; its last line: /);
		expect(tarballRequests).toBe(2);
		expect(existsSync(join(dir, 'node_modules', 'stall-probe', 'package.json'))).toBe(false);
		const bunsInDir = readdirSync('/proc')
			.filter((pid) => /^\d+$/.test(pid))
			.filter((pid) => {
				try {
					return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bun') && readFileSync(`/proc/${pid}/environ`, 'utf8').includes(dir);
				} catch {
					return false;
				}
			});
		expect(bunsInDir).toEqual([]);
	}, 60000);
});

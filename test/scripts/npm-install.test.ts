/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
/**
 * The n8n installs of `npm test` and `npm start` finish or fail in a known time when the registry goes
 * silent: real npm against a local registry whose tarball request never answers.
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
		options: { command: 'ci' | 'install'; label: string; log: (line: string) => void; env: Record<string, string>; idleTimeoutMs: number; attempts: number },
	) => Promise<number>;
};

const IDLE_MS = 3000;

describe('npm install of the n8n runtimes against a registry that goes silent', () => {
	let work: string;
	let tarball: Buffer;
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
		server = createServer((req, res) => {
			if (req.url === '/stall-probe') {
				const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
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
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, dependencies: { 'stall-probe': '1.0.0' } }));
		// Each project its own npm cache: nothing fetched by another case answers for the registry.
		return { dir, env: { npm_config_registry: registry, npm_config_cache: join(dir, '.npm-cache') } };
	}

	test('an attempt that prints nothing is ended and the next one installs', async () => {
		tarballRequests = 0;
		silentRequests = 1;
		const { dir, env } = project('recovers');
		const lines: string[] = [];
		const attempts = await npmInstall(dir, { command: 'install', label: 'probe', log: (line) => lines.push(line), env, idleTimeoutMs: IDLE_MS, attempts: 3 });

		expect(attempts).toBe(2);
		expect(tarballRequests).toBe(2);
		expect(lines).toEqual([expect.stringMatching(/^probe: npm install printed nothing for 3 s \(its last line: .*stall-probe.*\); attempt 2 of 3$/)]);
		expect(JSON.parse(readFileSync(join(dir, 'node_modules', 'stall-probe', 'package.json'), 'utf8')).version).toBe('1.0.0');
	}, 60000);

	test('when every attempt stalls, the error names each attempt and no npm is left running', async () => {
		tarballRequests = 0;
		silentRequests = Infinity;
		const { dir, env } = project('gives-up');
		const error: Error = await npmInstall(dir, { command: 'install', label: 'probe', log: () => {}, env, idleTimeoutMs: IDLE_MS, attempts: 2 }).catch((e) => e);

		expect(error.message).toMatch(/^probe: npm install, attempt 2 of 2: npm install .* printed nothing for 3 s/);
		expect(error.message).toMatch(/\nattempt 1: printed nothing for 3 s; its last line: .*stall-probe/);
		expect(tarballRequests).toBe(2);
		expect(existsSync(join(dir, 'node_modules', 'stall-probe', 'package.json'))).toBe(false);
		const npmsInDir = readdirSync('/proc')
			.filter((pid) => /^\d+$/.test(pid))
			.filter((pid) => {
				try {
					return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('npm') && readFileSync(`/proc/${pid}/environ`, 'utf8').includes(dir);
				} catch {
					return false;
				}
			});
		expect(npmsInDir).toEqual([]);
	}, 60000);
});

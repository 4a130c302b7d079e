'use strict';
// Debian's Chromium driven by puppeteer-core (which downloads no browser). Debian's `chromium` wrapper
// script fails on these machines, so the real binary is launched, with flags that work headless here.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { ensureWorkRoot } = require('../../e2e/lib/instance');

const ARTIFACTS_DIR = path.resolve(__dirname, '..', '.artifacts');

/** The Chromium binary: $CHROMIUM_PATH, else the one Debian's `chromium` package installed. */
function chromiumPath() {
	if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
	try {
		const files = execFileSync('dpkg', ['-L', 'chromium'], { encoding: 'utf8' }).split('\n');
		const bin = files.find((f) => /\/chromium\/chromium$/.test(f));
		if (bin && fs.existsSync(bin)) return bin;
	} catch {
		/* not installed */
	}
	return undefined;
}

async function launchBrowser({ width = 1440, height = 900 } = {}) {
	const executablePath = chromiumPath();
	if (!executablePath) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
	const puppeteer = require('puppeteer-core');
	const userDataDir = fs.mkdtempSync(path.join(ensureWorkRoot(), 'chromium-'));
	const browser = await puppeteer.launch({
		executablePath,
		headless: true,
		userDataDir,
		defaultViewport: { width, height },
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
	const close = async () => {
		await browser.close().catch(() => {});
		fs.rmSync(userDataDir, { recursive: true, force: true });
	};
	return { browser, close, executablePath };
}

/** Saves a full-window screenshot as a test artifact (test/browser/.artifacts/, ignored by git). */
async function screenshot(page, name) {
	fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
	const file = path.join(ARTIFACTS_DIR, `${name}.png`);
	await page.screenshot({ path: file });
	return file;
}

module.exports = { chromiumPath, launchBrowser, screenshot, ARTIFACTS_DIR };

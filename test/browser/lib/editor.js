'use strict';
// What a user does in n8n 2.x's editor, by its stable data-test-id attributes.

const { sleep, waitUntil } = require('../../e2e/lib/util');
const { OWNER } = require('../../e2e/lib/rest');

const byId = (id) => `[data-test-id="${id}"]`;

/** Polls `fn` until it returns a truthy value; throws naming `what` on timeout. */
const until = (fn, what, { timeoutMs = 30000, intervalMs = 250 } = {}) => waitUntil(what, fn, { timeoutMs, intervalMs });

/**
 * How long the editor may take to show a page. A page opened first loads the whole editor: 15 to 22 s
 * when the browser suite ran among npm test's other suites on two cores, and over 30 s once in CI.
 */
const PAGE_LOAD_MS = 120000;
const SIGN_IN_FIELD = '#emailOrLdapLoginId';

async function signIn(page, baseUrl, { email, password } = OWNER) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded', timeout: PAGE_LOAD_MS });
	await page.waitForSelector(SIGN_IN_FIELD, { timeout: PAGE_LOAD_MS });
	await page.type(SIGN_IN_FIELD, email);
	await page.type('#password', password);
	await page.click(byId('form-submit-button'));
	await until(async () => !page.url().includes('/signin'), 'the editor after sign-in', { timeoutMs: PAGE_LOAD_MS });
}

/**
 * Opens `path` of the editor once `selector` shows, signing in first where the editor asks for it: a
 * sign-in that failed earlier costs one test, not every test after it.
 */
async function open(page, baseUrl, path, selector) {
	for (let signedIn = false; ; signedIn = true) {
		await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded', timeout: PAGE_LOAD_MS });
		const shown = await page.waitForSelector(`${selector}, ${SIGN_IN_FIELD}`, { timeout: PAGE_LOAD_MS });
		if (!(await shown.evaluate((e, field) => e.matches(field), SIGN_IN_FIELD))) return;
		if (signedIn) throw new Error(`${path} asked to sign in again right after signing in`);
		await signIn(page, baseUrl);
	}
}

/**
 * Goes to `path` by the editor's own router, as a click inside the editor does. Loading the editor again
 * cost Chromium 10 s of CPU, the router 2 to 3 s, and the suite opens about 20 workflows. False where
 * the editor is not loaded or the route does not complete within 10 s (a "save changes?" question).
 */
async function route(page, path) {
	return await page
		.evaluate(async (to) => {
			const router = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router;
			if (!router) return false;
			const timeout = new Promise((resolve) => setTimeout(() => resolve(false), 10000));
			const done = await Promise.race([router.push(to).then((failure) => !failure), timeout]);
			return done && location.pathname === to;
		}, path)
		.catch(() => false);
}

/**
 * Opens a workflow once its canvas shows, which an idle network does not say under load. By the router
 * through the workflow list, so that the canvas that shows is this workflow's and not the last one's;
 * where that fails, by loading the editor on it.
 */
async function openWorkflow(page, baseUrl, id) {
	const canvas = byId('canvas-node');
	const shows = (options) => page.waitForSelector(canvas, options).then(() => true, () => false);
	if ((await route(page, '/home/workflows')) && (await shows({ hidden: true })) && (await route(page, `/workflow/${id}`)) && (await shows({ timeout: PAGE_LOAD_MS }))) return;
	await open(page, baseUrl, `/workflow/${id}`, canvas);
}

/** Visible text of the first element matching `selector`, or ''. */
async function textOf(page, selector) {
	return await page.$eval(selector, (e) => e.innerText).catch(() => '');
}

/** Clicks the visible element among `selector` whose text equals (or matches) `text`. */
async function clickByText(page, selector, text) {
	await until(
		async () => {
			const handle = (
				await page.evaluateHandle(
					(sel, t, isRe) => {
						const re = isRe ? new RegExp(t) : null;
						return [...document.querySelectorAll(sel)].find((e) => e.offsetParent !== null && typeof e.innerText === "string" && (re ? re.test(e.innerText) : e.innerText.trim() === t)) ?? null;
					},
					selector,
					text instanceof RegExp ? text.source : text,
					text instanceof RegExp,
				)
			).asElement();
			if (!handle) return false;
			// A list that is still opening has no clickable point yet: try again.
			return await handle.click().then(
				() => true,
				() => false,
			);
		},
		`${selector} with text ${text}`,
	);
}

/** Replaces the value of a parameter's input (fixed or expression editor). */
async function setParameter(page, name, value) {
	const container = byId(`parameter-input-${name}`);
	await page.waitForSelector(container);
	const target = (await page.$(`${container} input`)) ?? (await page.$(`${container} [contenteditable="true"]`));
	if (!target) throw new Error(`no input for parameter ${name}`);
	await target.click({ clickCount: 3 });
	await page.keyboard.down('Control');
	await page.keyboard.press('KeyA');
	await page.keyboard.up('Control');
	await page.keyboard.press('Backspace');
	await page.keyboard.type(value);
	// n8n takes a typed value over after a short debounce; saving or running before that uses the old one.
	await sleep(600);
}

/** Chooses an option of an `options` parameter by its visible name, and checks that it took. */
async function chooseOption(page, name, optionName) {
	const input = `${byId(`parameter-input-${name}`)} input`;
	await page.waitForSelector(input, { visible: true });
	await until(async () => {
		if ((await page.$eval(input, (e) => e.value)) === optionName) return true;
		await page.click(input);
		await sleep(500); // the list opens with an animation
		await page.evaluate((label) => {
			const item = [...document.querySelectorAll('[data-test-id="parameter-input-item"]')].find(
				(e) => e.offsetParent !== null && e.innerText.split('\n')[0].trim() === label,
			);
			item?.click();
		}, optionName);
		await sleep(300);
		return false;
	}, `option ${optionName} of ${name}`);
}

/**
 * The run status of every canvas node: 'success', 'error', 'waiting', 'running' or 'none'
 * (n8n marks them with canvas-node-status-* elements), sticky notes left out.
 */
async function nodeStatuses(page) {
	return await page.$$eval(byId('canvas-node'), (nodes) =>
		Object.fromEntries(
			nodes
				.filter((n) => n.getAttribute('data-node-type') !== 'n8n-nodes-base.stickyNote')
				.map((n) => {
					const mark = [...n.querySelectorAll('[data-test-id^="canvas-node-status-"]')].map((e) => e.getAttribute('data-test-id').replace('canvas-node-status-', ''));
					const status = ['error', 'waiting', 'running', 'success'].find((s) => mark.includes(s)) ?? 'none';
					return [n.getAttribute('data-node-name'), status];
				}),
		),
	);
}

module.exports = { sleep, byId, until, signIn, open, openWorkflow, textOf, clickByText, setParameter, chooseOption, nodeStatuses };

'use strict';
// What n8n 2.x's node panel (the node creator) shows, read from its data-test-id attributes: the
// entries of a search, and a node's view with its actions grouped by resource and its triggers.

const { byId } = require('./editor');

/** The entries listed in the panel: name, icon URL, whether the icon has loaded. */
async function nodePanelEntries(page) {
	return await page.$$eval(`${byId('node-creator')} ${byId('item-iterator-item')}`, (items) =>
		items.map((item) => {
			const img = item.querySelector('img');
			return {
				name: item.querySelector('[data-test-id="node-creator-item-name"]')?.innerText.trim(),
				icon: img?.getAttribute('src') ?? null,
				iconLoaded: Boolean(img && img.complete && img.naturalWidth > 0),
			};
		}),
	);
}

/**
 * A node's view (after clicking its entry): "Actions (N)" as `total`, the actions under each group
 * label (n8n's "<resource name> Actions"), in the order shown, and N of "Triggers (N)".
 */
async function nodeActions(page) {
	return await page.$eval(byId('node-creator'), (panel) => {
		const count = (what) => Number(new RegExp(`${what} \\((\\d+)\\)`).exec(panel.innerText)?.[1] ?? 0);
		const groups = [];
		for (const item of panel.querySelectorAll('[data-test-id="item-iterator-item"]')) {
			const name = item.querySelector('[data-test-id="node-creator-item-name"]');
			// textContent: the label as written, not as CSS capitalises it.
			if (!name) groups.push({ label: item.textContent.trim(), actions: [] });
			else if (item.getAttribute('data-keyboard-nav-type') === 'action') groups.at(-1)?.actions.push(name.innerText.trim());
		}
		return { total: count('Actions'), triggers: count('Triggers'), groups };
	});
}

/** Scrolls the panel until the last action of the group `label` is in view (the whole group, if it fits). */
async function showActionGroup(page, label) {
	await page.$eval(
		byId('node-creator'),
		(panel, wanted) => {
			const items = [...panel.querySelectorAll('[data-test-id="item-iterator-item"]')];
			const start = items.findIndex((item) => item.textContent.trim() === wanted);
			const next = items.findIndex((item, i) => i > start && !item.querySelector('[data-test-id="node-creator-item-name"]'));
			items[(next === -1 ? items.length : next) - 1]?.scrollIntoView({ block: 'nearest' });
		},
		label,
	);
}

module.exports = { nodePanelEntries, nodeActions, showActionGroup };

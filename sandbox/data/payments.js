'use strict';

// Payment fixtures: bank-account holders the challenge deposit can match names against.

const ACCOUNTS = Object.freeze([
	{ firstName: 'Anna', lastName: 'Schmidt', iban: 'DE89370400440532013000' },
	{ firstName: 'John', lastName: 'Smith', iban: 'GB29NWBK60161331926819' },
	{ firstName: 'Marie', lastName: 'Dubois', iban: 'FR1420041010050500013M02606' },
	{ firstName: 'Jan', lastName: 'Jansen', iban: 'NL91ABNA0417164300' },
]);

/** Account used when no holder is similar enough to the requested name. */
const DEFAULT_ACCOUNT = Object.freeze({ firstName: 'Erika', lastName: 'Mustermann', iban: 'DE02120300000000202051' });

/** lastName (case-insensitive) that makes the challenge deposit end in status FAIL. */
const FAIL_LAST_NAME = 'fail';

const norm = (s) => s.trim().replace(/\s+/g, ' ').toLowerCase();

function levenshtein(a, b) {
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i += 1) {
		const cur = [i];
		for (let j = 1; j <= b.length; j += 1) {
			cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		prev = cur;
	}
	return prev[b.length];
}

/** Similarity 0..1 of two full names. */
function similarity(a, b) {
	const x = norm(a);
	const y = norm(b);
	const longest = Math.max(x.length, y.length);
	return longest === 0 ? 1 : 1 - levenshtein(x, y) / longest;
}

/**
 * Chooses the account for a name (most similar holder, or DEFAULT_ACCOUNT below 0.6 similarity)
 * and scores the match: exact -> 100 or 0; fuzzy -> rounded similarity x 100.
 */
function matchAccount(firstName, lastName, logic) {
	const wanted = `${firstName} ${lastName}`;
	let account = DEFAULT_ACCOUNT;
	let best = 0;
	for (const a of ACCOUNTS) {
		const s = similarity(wanted, `${a.firstName} ${a.lastName}`);
		if (s > best) {
			best = s;
			account = a;
		}
	}
	if (best < 0.6) {
		account = DEFAULT_ACCOUNT;
		best = similarity(wanted, `${account.firstName} ${account.lastName}`);
	}
	const exact = norm(wanted) === norm(`${account.firstName} ${account.lastName}`);
	const nameMatchScore = logic === 'exact' ? (exact ? 100 : 0) : Math.round(best * 100);
	return { account, nameMatchScore };
}

module.exports = { ACCOUNTS, DEFAULT_ACCOUNT, FAIL_LAST_NAME, matchAccount };

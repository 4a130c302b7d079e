'use strict';
// The input names of a run: "Bench Person 00000" ... (none of them is a fixture with hits or errors);
// with `hitEvery`, every hitEvery-th is a person on three lists instead (the review rows).
// The same list is built in n8n by an expression (see workflows.js) and by the plain client.

const HIT_NAME = 'Viktor Sanctioned';

const NAME_EXPRESSION = (count, hitEvery = 0) =>
	`={{ Array.from({ length: ${count} }, (_, i) => ${hitEvery ? `i % ${hitEvery} === 0 ? '${HIT_NAME}' : ` : ''}'Bench Person ' + String(i).padStart(5, '0')) }}`;

function benchNames(count, hitEvery = 0) {
	return Array.from({ length: count }, (_, i) => (hitEvery && i % hitEvery === 0 ? HIT_NAME : `Bench Person ${String(i).padStart(5, '0')}`));
}

module.exports = { benchNames, NAME_EXPRESSION };

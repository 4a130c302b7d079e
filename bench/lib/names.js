'use strict';
// The input names of a run: "Bench Person 00000" ... (none of them is a fixture with hits or errors).
// The same list is built in n8n by an expression (see workflows.js) and by the plain client.

const NAME_EXPRESSION = (count) => `={{ Array.from({ length: ${count} }, (_, i) => 'Bench Person ' + String(i).padStart(5, '0')) }}`;

function benchNames(count) {
	return Array.from({ length: count }, (_, i) => `Bench Person ${String(i).padStart(5, '0')}`);
}

module.exports = { benchNames, NAME_EXPRESSION };

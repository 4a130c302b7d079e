'use strict';
// The scripted model behind examples/agent-deposit-review.json in the tests: it does what the question
// asks, the way a model would. "Screen Anna Schmidt (born 12 March 1985)" -> Screen_Person; when the
// screening found no hit, "reference R" -> Challenge_Deposit, "one-time password to +43 ..." -> Send_OTP,
// one call per turn; then it answers by quoting every tool result it was shown, so the test can read
// what the model was told. A tool behind a human-review node is offered with the arguments wrapped in
// { toolParameters, hitlParameters } (n8n-core createHitlToolkit); the script wraps them when asked to.

const { toolName, parse } = require('./compliance-model');

const AGENT = 'Deposit Agent';
const AML = 'Screen Person';
const DEPOSIT = 'Challenge Deposit';
const OTP = 'Send OTP';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The arguments as the offered tool takes them: wrapped when a human-review node gates it. */
function argumentsFor(body, name, args) {
	const tool = (body.tools ?? []).find((t) => t.function?.name === name);
	return tool?.function?.parameters?.properties?.toolParameters ? { toolParameters: args, hitlParameters: {} } : args;
}

function reviewModel(body, { toolMessages, userMessage = '' }) {
	const answered = (tool) => toolMessages.filter((m) => m.name === toolName(tool));
	const call = (tool, args) => ({ toolCalls: [{ name: toolName(tool), arguments: argumentsFor(body, toolName(tool), args) }] });
	const person = userMessage.match(/Screen (\S+) (\S+) \(born (\d+) (\w+) (\d{4})\)/);
	const reference = userMessage.match(/reference ([A-Za-z0-9-]+)/)?.[1];
	const phone = userMessage.match(/one-time password to (\+[\d ]+\d)/)?.[1];

	if (person && answered(AML).length === 0) {
		const [, first, last, day, month, year] = person;
		const dob = `${year}/${String(MONTHS.indexOf(month) + 1).padStart(2, '0')}/${day.padStart(2, '0')}`;
		return call(AML, { name: `${first} ${last}`, dob });
	}
	const screening = parse(answered(AML)[0]?.content)?.[0];
	const clear = !person || screening?.isHit === false;
	if (clear && reference && answered(DEPOSIT).length === 0) {
		return call(DEPOSIT, { reference, firstName: person?.[1] ?? 'Anna', lastName: person?.[2] ?? 'Schmidt' });
	}
	if (clear && phone && answered(OTP).length === 0) return call(OTP, { phoneNumber: phone });
	return { content: toolMessages.map((m) => `${m.name} answered: ${m.content}`).join('\n') };
}

module.exports = { reviewModel, AGENT, AML, DEPOSIT, OTP };

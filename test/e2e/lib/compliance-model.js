'use strict';
// The scripted model behind examples/compliance-agent.json in the tests (agent e2e, browser suite):
// it acts on what it was shown, the way a model would. Use with lib/model-server.js:
//   startModelServer({ script: complianceModel })

/** n8n's nodeNameToToolName: the name the model calls a tool by. */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
const AGENT = 'Compliance Agent';
const AML = 'Screen Person';
const KYB = 'Search Companies';
const OTP = 'Send OTP';

const parse = (content) => {
	try {
		return JSON.parse(content);
	} catch {
		return undefined;
	}
};

/**
 * The scripted model. It acts on what it was shown, like a model would: screen with a wrong date of
 * birth, correct it after reading the error, search the company at the same time, send the OTP when it
 * was given that tool, then answer by quoting the screening result it received.
 */
function complianceModel(_body, { toolMessages, userMessage, offeredTools = [] }) {
	const results = (tool) => toolMessages.filter((m) => m.name === toolName(tool));
	const screenings = results(AML);
	if (/^(Screen Viktor Sanctioned and read|Stream|Legacy order)/.test(userMessage ?? '')) {
		// One screening, then an answer that quotes what the tool gave back.
		if (screenings.length === 0) return { toolCalls: [{ name: toolName(AML), arguments: { name: 'Viktor Sanctioned', dob: '1970/01/15' } }] };
		const [result] = parse(screenings[0].content) ?? [];
		return { content: `Screening result as received (${screenings[0].content.length} characters): totalHits ${result?.totalHits}.` };
	}
	if (screenings.length === 0) {
		return { toolCalls: [{ name: toolName(AML), arguments: { name: 'Viktor Sanctioned', dob: '15.01.1970' } }] };
	}
	if (screenings.length === 1) {
		if (!/dob/.test(screenings[0].content)) return { content: `I could not read the screening tool's answer: ${screenings[0].content}` };
		return {
			toolCalls: [
				{ name: toolName(AML), arguments: { name: 'Viktor Sanctioned', dob: '1970/01/15' } },
				{ name: toolName(KYB), arguments: { companyName: 'Acme' } },
			],
		};
	}
	const otpOffered = offeredTools.includes(toolName(OTP));
	if (otpOffered && results(OTP).length === 0) return { toolCalls: [{ name: toolName(OTP), arguments: { phoneNumber: '+43 650 1234567' } }] };
	const screening = parse(screenings[1].content)?.[0] ?? {};
	const companies = (parse(results(KYB)[0]?.content) ?? []).map((c) => c.legalName ?? c.name);
	const otp = otpOffered ? parse(results(OTP)[0].content)?.[0]?.referenceId : undefined;
	const records = (screening.records ?? []).map((r) => `${r.id} (${r.sourceType}, ${r.sourceId})`);
	return {
		content:
			`Do not proceed. Screening of Viktor Sanctioned: isHit ${screening.isHit}, totalHits ${screening.totalHits}, ` +
			`records ${records.join(', ')}. Companies found: ${companies.join(', ')}.${otp ? ` OTP sent, reference ${otp}.` : ''}`,
	};
}

module.exports = { complianceModel, toolName, parse, AGENT, AML, KYB, OTP };

import type { IDataObject } from 'n8n-workflow';

import { answerOf } from '../../nodes/shared/operation/evidence';
import { simplifier } from '../../nodes/shared/operation/simplify';
import { type Answer, everyAnswer, fieldCount } from '../helpers/every-answer';
import { GENERATIONS, useSandbox } from '../helpers/sandbox';

// n8n's UX guideline: every operation whose answer has more than ten fields offers Simplify, which keeps
// at most about ten. Counted here from what the emulator plays, in each API generation, for every
// operation of the action node; and what users map onward (the example workflows' expressions, the
// receipts of money and messages) must survive the simplification.

const sandbox = useSandbox();

/** The most fields a simplified answer may have: n8n's "about ten" (the older KYB generation names its status and request id as well). */
const MOST_FIELDS = 11;

/** What the example workflows (examples/*.json) read from each operation's answer, in either generation's place. */
const USED_BY_EXAMPLES: Record<string, string[][]> = {
	'kyb search': [['companyId'], ['transactionId']],
	'kyb getDetails': [['data.company.legalName'], ['data.officers', 'data.company.officers']],
	'payments challengeDeposit': [['transactionId'], ['status'], ['nameMatchScore'], ['iban'], ['returnedFirstName'], ['returnedLastName']],
	'document verifyDocument': [['auditTrail.workStatus'], ['authoritativeData.identityDocument.idNumber'], ['croppedImageFiles.portrait.fileName'], ['identitySubject.dob'], ['identitySubject.fullName']],
	'qes getVerification': [['data.identification.personData.firstName'], ['data.identification.personData.lastName'], ['data.requestId'], ['signedDocumentDownloads']],
	'address verify': [['addressVerification.outcome'], ['addressVerification.matchQuality']],
	'phone getRiskScore': [['riskAssessment.recommendation'], ['riskAssessment.score']],
};

const at = (json: unknown, path: string): unknown =>
	path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), json);

describe.each(GENERATIONS)('Simplify, every operation, API generation %s', (generation) => {
	let answers: Answer[];
	beforeAll(async () => {
		await sandbox().reset();
		await sandbox().configure({ generation });
		answers = await everyAnswer(sandbox());
	});

	it('every operation whose answer has more than ten fields offers Simplify, and only those', () => {
		const offered = answers.map((a) => `${a.resource.value} ${a.operation}: ${simplifier(a.definition) ? 'simplify' : 'whole'}`);
		// AML's screening summary is the short form beside the answer (its record ids and fingerprints for a review), not the answer.
		const counted = (json: IDataObject) => fieldCount(answerOf(json));
		const due = answers.map((a) => `${a.resource.value} ${a.operation}: ${a.items.some((i) => counted(i.json) > 10) ? 'simplify' : 'whole'}`);
		expect(offered).toEqual(due);
	});

	it('a simplified answer has at most about ten fields and keeps the receipt and what the examples read', () => {
		for (const answer of answers) {
			const simplify = simplifier(answer.definition);
			if (!simplify) continue;
			const key = `${answer.resource.value} ${answer.operation}`;
			for (const item of answer.items) {
				const simple = simplify(item.json);
				// Phone's summaries (released with Phone version 2, held by its golden workflow) group their values in six fields.
				const fields = Array.isArray(answer.definition.simplify) ? fieldCount(simple) : Object.keys(simple).length;
				expect([key, fields <= MOST_FIELDS]).toEqual([key, true]);
				const receipt = answer.definition.receipt;
				if (receipt) expect([key, at(simple, receipt)]).toEqual([key, at(item.json, receipt)]);
				for (const places of USED_BY_EXAMPLES[key] ?? []) {
					const whole = places.map((p) => at(item.json, p)).find((v) => v !== undefined);
					const kept = places.map((p) => at(simple, p)).find((v) => v !== undefined);
					expect([key, places[0], kept]).toEqual([key, places[0], whole]);
				}
			}
		}
	});
});

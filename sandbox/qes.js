'use strict';

// QES sessions: current state (fixtures + overrides), the getVerification body and the ping payload.

const { QES_SESSIONS, QES_TIMES, QES_PERSON, QES_MESSAGES } = require('./data');
const { fileBytes, filePath } = require('./files');

/** Current state of a session, or null when unknown. */
function getSession(state, sessionId) {
	const override = state.qesSessions.get(sessionId);
	if (override) return { sessionId, ...override };
	const fixture = Object.prototype.hasOwnProperty.call(QES_SESSIONS, sessionId) ? QES_SESSIONS[sessionId] : null;
	return fixture ? { sessionId, ...fixture, updatedAt: null } : null;
}

/** Creates or changes a session. isVerified defaults to (status === "completed"). */
function setSession(state, sessionId, status, isVerified) {
	const session = {
		status,
		isVerified: typeof isVerified === 'boolean' ? isVerified : status === 'completed',
		updatedAt: new Date().toISOString(),
	};
	state.qesSessions.set(sessionId, session);
	return { sessionId, ...session };
}

function resource(kind, sessionId, origin, validBefore) {
	const name = `${sessionId}.pdf`;
	const bytes = fileBytes(kind, name);
	const common = {
		id: `${kind === 'signed' ? 'res-signed' : 'res-plain'}-${sessionId}`,
		type: 'DOCUMENT',
		family: kind === 'signed' ? 'SIGNED_DOCUMENT' : 'DOCUMENT_TO_SIGN',
		status: 'AVAILABLE',
		filename: kind === 'signed' ? `${sessionId}-signed.pdf` : 'contract.pdf',
		mimeType: 'application/pdf',
		resourceUri: `resource://${kind}/${sessionId}`,
		resourceUrl: `${origin}${filePath(kind, sessionId)}`,
		sizeBytes: bytes ? bytes.length : 0,
		urlValidBefore: validBefore,
	};
	if (kind === 'signed') return { ...common, metadata: { fileId: `file-${sessionId}`, workstep: `ws-${sessionId}` } };
	return {
		...common,
		name: 'contract.pdf',
		subType: 'PDF',
		metadata: { sourceTemplateUrl: 'https://example.com/templates/contract.pdf' },
	};
}

/** Body of GET /onboarding/getVerification/{sessionId} (interface 2.11). */
function verificationBody(session, origin) {
	const { sessionId, status, isVerified } = session;
	const completed = status === 'completed';
	const finished = completed || status === 'rejected';
	const fixedTimes = session.updatedAt === null;
	const at = (fixed) => (fixedTimes ? fixed : session.updatedAt);
	const validBefore = new Date(Date.now() + 60 * 60 * 1000).toISOString();
	const rejected = status === 'rejected';
	return {
		status: true,
		data: {
			isVerified,
			status,
			message: QES_MESSAGES[status] || `Verification ${status}`,
			requestId: sessionId,
			signature: {
				content: [
					{
						id: `sig-${sessionId}`,
						method: 'QES',
						status: status.toUpperCase(),
						pageMode: 'SINGLE_PAGE',
						signedAt: completed ? at(QES_TIMES.signedAt) : null,
						plainResource: resource('plain', sessionId, origin, validBefore),
						signedResource: completed ? resource('signed', sessionId, origin, validBefore) : null,
					},
				],
			},
			identification: {
				id: `idn-${sessionId}`,
				actor: 'signer',
				source: 'AUTO_IDENT',
				status,
				finalizedAt: finished ? at(QES_TIMES.finalizedAt) : null,
				organizationId: 'org-sandbox-0001',
				idSelf: {
					artifacts: { biometry: finished ? ['selfie.jpg'] : [], document: finished ? ['id-front.jpg', 'id-back.jpg'] : [] },
					biometryCheck: { keysWithError: [], controlsSummary: finished ? 1 : 0 },
					documentCheck: {
						documentType: QES_PERSON.documentDetails.type,
						documentTypeFamily: 'IDENTITY_DOCUMENT',
						keysWithError: rejected ? ['documentExpired'] : [],
						controlsSummary: completed ? 1 : 0,
					},
				},
				personData: { ...QES_PERSON, documentDetails: { ...QES_PERSON.documentDetails } },
				validationDetail: {
					email: {
						otpValidated: finished ? 'true' : 'false',
						byRequestInput: QES_PERSON.email,
						requestMatched: rejected ? 'false' : 'true',
						byIdentificationSource: QES_PERSON.email,
					},
				},
			},
		},
	};
}

/** JSON payload of a status ping. */
function pingPayload(sessionId, status, extra) {
	return { event: 'qes.status', sessionId, requestId: sessionId, status, timestamp: new Date().toISOString(), ...(extra || {}) };
}

module.exports = { getSession, setSession, verificationBody, pingPayload, QES_TIMES };

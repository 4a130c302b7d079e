'use strict';

// Document verification: open a journey, add images, verify age/disability, full verify.

const crypto = require('node:crypto');
const { found, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');
const { DOCUMENT_SUBJECT } = require('../data');

function openJourney({ body, state }) {
	const passThroughData = v.optionalObject(body, 'passThroughData');
	const journeyId = crypto.randomUUID();
	const journey = { journeyId, passThroughData: passThroughData || {}, images: [], imageData: {}, createdAt: new Date().toISOString() };
	boundedSet(state.journeys, journeyId, journey, STORE_LIMIT);
	return ok({ journeyId, passThroughData: journey.passThroughData });
}

function addImage({ body, state }) {
	const journeyId = v.requireString(body, 'journeyId');
	const imageName = v.requireString(body, 'imageName');
	const imageSide = v.requireEnum(body, 'imageSide', ['front', 'back', 'selfie']);
	if (body.imageData === undefined || body.imageData === null) throw v.bad('imageData is required');
	if (!v.isBase64(body.imageData)) throw v.bad('imageData must be non-empty base64');
	const storeOnly = v.optionalBoolean(body, 'storeOnly');
	v.optionalObject(body, 'passThroughData');
	const journey = found(state.journeys, journeyId, 'Journey');
	const bytes = Buffer.from(body.imageData.replace(/\r?\n/g, ''), 'base64');
	const image = {
		imageName,
		imageSide,
		sizeBytes: bytes.length,
		sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
		storeOnly: storeOnly === true,
		addedAt: new Date().toISOString(),
	};
	journey.images.push(image);
	// The latest image of each side is kept whole: /verify returns its crops byte for byte.
	journey.imageData[imageSide] = bytes.toString('base64');
	if (body.passThroughData) journey.passThroughData = { ...journey.passThroughData, ...body.passThroughData };
	return ok({ journeyId, imageSide, imageName, stored: true, sizeBytes: image.sizeBytes });
}

function verifyAge({ body, state }) {
	const journeyId = v.requireString(body, 'journeyId');
	const ageFrom = v.optionalInteger(body, 'ageFrom', { min: 0, max: 150 });
	const ageTo = v.optionalInteger(body, 'ageTo', { min: 0, max: 150 });
	if (ageFrom !== undefined && ageTo !== undefined) throw v.bad('ageFrom and ageTo cannot be combined');
	const minDisability = v.optionalInteger(body, 'minDisabilityPercentage', { min: 0, max: 100 });
	found(state.journeys, journeyId, 'Journey');
	const { age, disabilityPercentage } = DOCUMENT_SUBJECT;
	let ageOk = true;
	if (ageFrom !== undefined) ageOk = age >= ageFrom;
	if (ageTo !== undefined) ageOk = age <= ageTo;
	const disabilityOk = minDisability === undefined || disabilityPercentage >= minDisability;
	return ok({
		journeyId,
		status: 'ageAndDisabilityVerificationComplete',
		ageResult: ageOk ? 'yes' : 'no',
		disabilityResult: disabilityOk ? 'eligible' : 'not eligible',
	});
}

const slashDate = (iso) => iso.replace(/-/g, '/');

/**
 * The crops a real service cuts from the images: the portrait comes from the document's front, the
 * other members are the latest image of their side. Each is that image's bytes unchanged, so a test
 * can compare them byte for byte with what it added.
 */
function croppedImages(journey) {
	const { front, back, selfie } = journey.imageData;
	return {
		...(front ? { portrait: front, front } : {}),
		...(back ? { back } : {}),
		...(selfie ? { selfie } : {}),
	};
}

function verify({ body, state }) {
	const journeyId = v.requireString(body, 'journeyId');
	const journey = found(state.journeys, journeyId, 'Journey');
	if (journey.images.length === 0) throw v.bad('journey has no images; add an image first');
	const s = DOCUMENT_SUBJECT;
	const started = journey.images[0].addedAt;
	const now = new Date().toISOString();
	return ok({
		journeyId,
		status: 'verificationComplete',
		identitySubject: {
			type: 'PERSON',
			fullName: `${s.firstName} ${s.lastName}`,
			nameStructure: { firstName: s.firstName, lastName: s.lastName, nativeFullName: `${s.firstName} ${s.lastName}` },
			gender: s.gender,
			nationality: s.nationality,
			dob: slashDate(s.dateOfBirth),
			addressSingleLine: s.addressSingleLine,
			email: null,
			mobileNumber: null,
		},
		authoritativeData: {
			identityDocument: {
				type: s.documentType,
				idNumber: s.documentNumber,
				issuingCountry: s.issuingCountry,
				expeditor: s.expeditor,
				expirationDate: slashDate(s.expiryDate),
				verificationChannel: 'DOCUMENT_SCAN',
			},
		},
		proofOfWork: {
			type: 'DOCUMENT_VERIFICATION',
			titleOfProof: 'Identity document verification',
			timestampOfProof: now,
			images: journey.images.map(({ imageName, imageSide, sha256 }) => ({ imageName, imageSide, sha256 })),
		},
		auditTrail: { workId: `work-${journeyId}`, workStatus: 'PASS', workStartTst: started, workEndTst: now, workResult: 'VERIFIED' },
		fraudAlerts: { fraudAlertDetail: [], aggregateFraudAlertScore: 0 },
		croppedImages: croppedImages(journey),
		passThroughData: journey.passThroughData,
	});
}

module.exports = [
	{ method: 'POST', path: '/openJourney', handler: openJourney },
	{ method: 'POST', path: '/addImage', handler: addImage },
	{ method: 'POST', path: '/verify/age', handler: verifyAge },
	{ method: 'POST', path: '/verify', handler: verify },
];

'use strict';

// All mutable emulator state in one place, so /__control/reset can restore it at once.

const { DEFAULT_CONFIG, mergeConfig } = require('./config');
const { createRecorder } = require('./recorder');
const { createResultDeliveries } = require('./result-delivery');
const { AML_RECORDS } = require('./data/aml');

/** `startConfig` (a config patch) becomes the baseline that reset returns to. */
function createState(startConfig = {}) {
	const baseline = mergeConfig(DEFAULT_CONFIG, startConfig || {});
	const state = {
		baseline,
		config: null,
		recorder: createRecorder(),
		rateLimiter: null, // the config's rate limiter (rate-limiters.js), made at its first request
		journeys: new Map(), // journeyId -> {journeyId, passThroughData, images[], createdAt}
		searches: new Map(), // transactionId -> {transactionId, companyIds:Set, name, country, createdAt}
		profiles: new Map(), // profileId -> registered AML monitoring profile
		amlRecords: AML_RECORDS, // the AML lists checkIndividual searches (changed by /__control/aml/records)
		phone: new Map(), // referenceId -> phone verification request
		phoneMessages: [], // {referenceId, method, to, text, code, sentAt}: the OTP messages "delivered"
		qesSessions: new Map(), // sessionId -> {status, isVerified, updatedAt} (overrides and new sessions)
		webhook: null, // {id, url, metadata, createdAt}
		resultWebhook: null, // {url, signingSecret}: where signed journey and payment results go
		hostedJourneys: new Map(), // transactionId -> hosted identity journey (handshake, then completed by a control call)
		payments: new Map(), // referenceId -> payment by bank {requestId, status, history, ...}
		resultDeliveries: createResultDeliveries(),
		reset() {
			state.config = mergeConfig(baseline, {});
			state.recorder.reset();
			state.resetRateLimiter();
			state.journeys.clear();
			state.searches.clear();
			state.profiles.clear();
			state.amlRecords = AML_RECORDS;
			state.phone.clear();
			state.phoneMessages = [];
			state.qesSessions.clear();
			state.webhook = null;
			state.resultWebhook = null;
			state.hostedJourneys.clear();
			state.payments.clear();
			state.resultDeliveries.reset();
		},
		resetRateLimiter() {
			state.rateLimiter = null;
		},
		setConfig(patch) {
			const next = mergeConfig(state.config, patch);
			if (JSON.stringify(next.rateLimit) !== JSON.stringify(state.config.rateLimit)) state.resetRateLimiter();
			state.config = next;
			return next;
		},
	};
	state.reset();
	return state;
}

module.exports = { createState };

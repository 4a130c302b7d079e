'use strict';

// The API's answer shapes differ by generation (the provider's docs show several): g2 answers
// un-enveloped, g3 wraps every answer as { status: true, data: {...} } and changed some operations'
// answers (AML check, OTP). The config key `generation` picks the one this emulator plays, so the
// nodes are tested against both. Routes whose answer differs beyond the envelope branch on
// generationOf(state) themselves.

const GENERATIONS = ['g2', 'g3'];

function generationOf(state) {
	return state.config.generation;
}

/** The payload as the configured generation answers it: as is (g2) or in the g3 envelope. */
function inEnvelope(state, payload) {
	return generationOf(state) === 'g3' ? { status: true, data: payload } : payload;
}

module.exports = { GENERATIONS, generationOf, inEnvelope };

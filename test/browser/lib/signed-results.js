'use strict';
// Examples started by the trigger on signed results (source "signedResult"): the test plays the
// provider. "Execute workflow" on the trigger makes n8n listen on the test URL for one delivery; the
// emulator, told that URL and the example's signing secret, ends the hosted journey or payment an
// earlier run of the example started (its Webhook start comes first in the file) and delivers the
// signed result. Until n8n listens it answers 404, and nothing runs: the result is delivered again
// until one is taken.

const { control } = require('../../e2e/trigger-helpers');
const { EXAMPLE_CREDENTIALS } = require('../../e2e/lib/workflows');
const { until } = require('./editor');

/** The secret of the examples' webhook credential, which the emulator signs with as the provider would. */
const SIGNING_SECRET = EXAMPLE_CREDENTIALS.find((c) => c.type === 'verificationServicesWebhookApi').data.signingSecret;

/**
 * Delivers the signed result the trigger node `start` listens for to n8n's test URL: a payment
 * result (Events: Payment Results) ends the newest payment with SUCCESS, any other a journey with PASS.
 * Returns what it delivered, for the test's log.
 */
async function deliverSignedResult({ server, sandbox, start }) {
	const url = `${server.url}/webhook-test/${start.webhookId}/webhook`;
	const registered = await control(sandbox, 'POST', '/results/webhook', { url, signingSecret: SIGNING_SECRET });
	if (registered.status !== 200) throw new Error(`the emulator refused the test URL: ${JSON.stringify(registered.body)}`);
	const payments = start.parameters?.events === 'paymentResult';
	const started = (await control(sandbox, 'GET', payments ? '/payments' : '/hosted-journeys')).body ?? [];
	const latest = started[started.length - 1];
	if (!latest) throw new Error(`no ${payments ? 'payment' : 'hosted journey'} to end: the example's Webhook start should have begun one`);
	const [route, body, id] = payments
		? [`/payments/${encodeURIComponent(latest.referenceId)}/status`, { status: 'SUCCESS', retries: 0 }, latest.referenceId]
		: [`/hosted-journeys/${latest.transactionId}/complete`, { success: 'PASS', retries: 0 }, latest.transactionId];
	const delivery = await until(
		async () => {
			const res = await control(sandbox, 'POST', route, body);
			if (res.status !== 200) throw new Error(`POST /__control${route}: ${JSON.stringify(res.body)}`);
			const [attempt] = res.body.delivery.attempts;
			return attempt.status === 404 ? false : res.body.delivery;
		},
		`n8n to listen for the signed result on ${url}`,
		{ timeoutMs: 60000, intervalMs: 500 },
	);
	const [attempt] = delivery.attempts;
	if (attempt.status !== 200) throw new Error(`the trigger answered ${attempt.status}: ${JSON.stringify(attempt.answer)}`);
	return `${payments ? 'payment' : 'journey'} ${id}: ${JSON.stringify(attempt.answer)}`;
}

module.exports = { deliverSignedResult };

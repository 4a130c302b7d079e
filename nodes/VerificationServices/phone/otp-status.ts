import { valueAt } from '../../shared/responses/envelope';

/** The provider's status codes of a code check. */
export const OTP_VERIFIED = 3900;
export const OTP_INVALID = 3905;

export interface OtpStatus {
	code: number | null;
	description: string | null;
	/** The request's state (CREATED, ONGOING, VERIFIED, ...) where the answer names it. */
	state: string | null;
}

/** The status of an OTP answer in whichever generation's shape it came (with or without `data`). */
export function otpStatus(body: unknown): OtpStatus {
	const code = valueAt(body, 'status.code');
	const description = valueAt(body, 'status.description');
	const state = valueAt(body, 'state');
	return {
		code: typeof code === 'number' ? code : /^\d+$/.test(String(code ?? '')) ? Number(code) : null,
		description: typeof description === 'string' ? description : null,
		state: typeof state === 'string' ? state : null,
	};
}

/**
 * Verified only on the provider's verdict: code 3900, or state VERIFIED in an answer without a code.
 * A code other than 3900 is never verified, whatever the state says (a wrong code checked against a
 * request verified earlier still answers state VERIFIED). Never on the description's words: "Not
 * verified" contains "verified".
 */
export function isVerified(status: OtpStatus): boolean {
	if (status.code !== null) return status.code === OTP_VERIFIED;
	return status.state?.toUpperCase() === 'VERIFIED';
}

/** A 4xx whose body says "invalid code" is an answer the workflow branches on, not a failure. */
export function isWrongCodeAnswer(statusCode: number, body: unknown): boolean {
	return statusCode >= 400 && statusCode < 500 && otpStatus(body).code === OTP_INVALID;
}

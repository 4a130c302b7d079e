import { isObject } from '../../shared/json';

/** The provider's status codes of a code check. */
export const OTP_VERIFIED = 3900;
export const OTP_INVALID = 3905;

export interface OtpStatus {
	code: number | null;
	description: string | null;
}

/**
 * The `status` object of a code check, read with and without the `data` wrapper (the older API
 * generation put it at the top level); undefined when the body carries none.
 */
export function otpStatus(body: unknown): OtpStatus | undefined {
	if (!isObject(body)) return undefined;
	const candidates = [isObject(body.data) ? body.data.status : undefined, body.status];
	for (const candidate of candidates) {
		if (!isObject(candidate)) continue;
		const code = typeof candidate.code === 'number' ? candidate.code : /^\d+$/.test(String(candidate.code ?? '')) ? Number(candidate.code) : null;
		const description = typeof candidate.description === 'string' ? candidate.description : null;
		if (code !== null || description !== null) return { code, description };
	}
	return undefined;
}

/** Verified only on the provider's "Verified" status (3900). */
export function isVerified(status: OtpStatus): boolean {
	return status.code === OTP_VERIFIED || (status.code === null && status.description?.trim().toLowerCase() === 'verified');
}

/** A 4xx whose body says "invalid code" is an answer the workflow branches on, not a failure. */
export function isWrongCodeAnswer(statusCode: number, body: unknown): boolean {
	return statusCode >= 400 && statusCode < 500 && otpStatus(body)?.code === OTP_INVALID;
}

import type { TextCheck } from '../../shared/fields/rules';

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

function isIpv6(value: string): boolean {
	const halves = value.split('::');
	if (halves.length > 2) return false;
	const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
	const last = groups[groups.length - 1];
	// An IPv4 tail (::ffff:192.0.2.1) stands for two groups.
	let tail = 0;
	if (last.length && IPV4.test(last[last.length - 1])) {
		last.pop();
		tail = 2;
	}
	const count = groups.flat().length + tail;
	if (!groups.flat().every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
	return halves.length === 2 ? count < 8 : count === 8;
}

/** The end user's IPv4 address (192.0.2.10). */
export const ipv4: TextCheck = {
	hint: 'an IPv4 address such as 192.0.2.10',
	test: (value) => IPV4.test(value),
};

/** The end user's IPv4 or IPv6 address. */
export const ipAddress: TextCheck = {
	hint: 'an IPv4 or IPv6 address such as 192.0.2.10 or 2001:db8::1',
	test: (value) => IPV4.test(value) || isIpv6(value),
};

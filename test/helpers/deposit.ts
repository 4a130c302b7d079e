/** Challenge Deposit parameters that pass every rule: the base of the payments and request-path tests. */
export const VALID_DEPOSIT = {
	operation: 'challengeDeposit',
	amount: '0.01',
	currency: 'EUR',
	description: 'order-4711',
	firstName: 'Anna',
	lastName: 'Schmidt',
	piiToggle: true,
	nameMatchLogic: 'exact',
};

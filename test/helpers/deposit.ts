/** Challenge Deposit parameters that pass every rule (test/e2e/lib/workflows.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { VALID_DEPOSIT } = require('../e2e/lib/workflows') as { VALID_DEPOSIT: Record<string, string | boolean> };

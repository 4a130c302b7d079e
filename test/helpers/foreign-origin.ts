/** Another origin a redirect points at (test/e2e/lib/foreign-origin.js): what reached it, by method, url and header names. */
export interface ForeignOrigin {
	origin: string;
	requests: Array<{ method: string; url: string; headers: string[] }>;
	close: () => Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { startForeignOrigin } = require('../e2e/lib/foreign-origin') as { startForeignOrigin: () => Promise<ForeignOrigin> };

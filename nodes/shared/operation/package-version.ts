/** The package's version as evidence names it; test/shared/evidence.test.ts holds it to package.json (no file is read at runtime). */
export const PACKAGE_VERSION = '0.1.0';

/** The package's version as evidence names it; test/docs checks it against package.json (no file is read at runtime). */
export const PACKAGE_VERSION = '0.1.0';

/** @type {import('jest').Config} */
// The bench's measurement of what a model reads (bench/model/characters.measure.ts), run by `npm run bench`
// (group `model`) with the unit tests' transform; not part of `npm run test:unit`.
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	rootDir: '../..',
	roots: ['<rootDir>/bench/model'],
	testMatch: ['**/*.measure.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	testTimeout: 120000,
};

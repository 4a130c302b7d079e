import type { Sandbox } from './sandbox';

/** The API generations the emulator plays (sandbox/generation.js): every affected operation is tested against each. */
export const GENERATIONS = ['g2', 'g3'] as const;
export type Generation = (typeof GENERATIONS)[number];

/** The emulator plays `generation` in every test of the enclosing describe block (set after its reset). */
export function playing(emulator: () => Sandbox, generation: Generation): void {
	beforeEach(async () => await emulator().configure({ generation }));
}

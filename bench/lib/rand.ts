// The seeded PRNG benchmarks and tests draw their pairs from lives in the core.
export { rng } from '../../src/core/rand.ts';

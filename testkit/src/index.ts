/** testkit: seeded generators of random boards, robots and legal orders, for property tests and benchmarks. */
export * from './random.js';
export { agree, mutants, type Json, type Read } from './mutants.js';

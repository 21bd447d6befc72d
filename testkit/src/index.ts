/** testkit: seeded generators of random boards, robots and legal orders, for property tests and benchmarks. */
export * from './random.js';

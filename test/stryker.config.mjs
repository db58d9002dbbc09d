// Mutation testing (`npm run mutation`; never part of `npm test` or CI): Stryker mutates the
// quota and burst limits, declared-operation validation, the CH query and logistics body
// validation, and runs the unit suites in test/vitest.mutation.config.ts against each mutant.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/auth/quota.ts',
    'src/http/operation.ts',
    'workers/routing/search/ch-query.ts',
    'src/api/logistics/validate.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 3_000,
  ignorePatterns: ['data', 'bench/results', 'docs', '.stryker-tmp', 'reports'],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};

// The suites `npm run mutation` runs against each mutant: fast unit tests of the mutated
// modules only (no servers, no databases, no built data), so a run fits in minutes on 2 cores.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/foundation/quota.test.ts',
      'test/foundation/operation.test.ts',
      'test/foundation/operation-schema.test.ts',
      'test/routing/ch-query.test.ts',
      'test/logistics/validate.test.ts',
    ],
    testTimeout: 60_000,
    pool: 'forks',
  },
});

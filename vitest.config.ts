import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites start servers with worker pools and databases: run files one at a time on 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});

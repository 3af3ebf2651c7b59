import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Network tests talk to servers on 127.0.0.1 that each test file starts and stops itself.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores: keep concurrency modest so timing-sensitive fault tests are not starved.
    maxWorkers: 2,
  },
});

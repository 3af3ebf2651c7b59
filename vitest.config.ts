import { defineConfig } from 'vitest/config';

import { LongFirstSequencer } from './test/support/sequencer.js';

export default defineConfig({
  test: {
    // Network tests talk to servers on 127.0.0.1 that each test file starts and stops itself.
    // A time-out is one generous bound against a hang, never a measure of speed: on two cores beside other work a test
    // runs five to ten times slower than on an idle machine, and the verdict must not change. Tests wait for
    // conditions (a ready line, a probe, `vi.waitFor`), never for a time; the slow project's bound is wider still.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep concurrency modest so timing-sensitive fault tests are not starved.
    maxWorkers: 2,
    // The long files first, whatever the project's name (test/support/sequencer.ts).
    sequence: { sequencer: LongFirstSequencer },
    // Each run transformed every TypeScript module again in the main process, the one thread every worker waits on:
    // about a third of `npm run test:fast`'s CPU, and most of its time on a loaded machine. The transforms are kept
    // in node_modules/.experimental-vitest-cache between runs, keyed by each file's content (vitest 5's default;
    // cleared when the lockfile changes, or by `npx vitest --clearCache`).
    experimental: { fsModuleCache: true },
    // Handlers log through Powertools; tests that check logs capture them with their own logger.
    // Metrics (EMF lines on stdout) are off unless a test turns them on to read them.
    // The AWS SDK's notice that its 2027 versions need Node.js 22 is true and is in the README; the tests run on the
    // Node.js the machine has and need not print it in every child process.
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    // `npm test` runs every project; `npm run test:fast` (`--project fast`) only the first.
    projects: [
      {
        // Pure functions and the emulator over loopback: one process per worker for all of them (the import of the
        // AWS SDK and zod, once per worker, was most of their time). Each file starts and stops its own servers, and
        // one that stubs the environment or stdout restores it after each test. No child process, no browser and no
        // fan-out of hundreds of requests at once (test/unit/test-tiers.test.ts checks the first two): those are in
        // test/integration and test/e2e, so this tier stays under a minute on a loaded machine.
        extends: true,
        test: { name: 'fast', include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], isolate: false },
      },
      {
        // Template tests share one process per worker: aws-cdk-lib, its template validator (a WebAssembly engine
        // that takes seconds to start) and the default stacks' templates (test/support/stacks-template.ts) load
        // once per worker, not once per file. They build their own App each, and change no shared state.
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          isolate: false,
          globalSetup: ['test/support/temp-dir-setup.ts'],
        },
      },
      {
        // Servers, stacks and child processes: one process per worker as well (each file imported the AWS SDK, zod and
        // the order stack again, about a second a file). Each file starts its own emulator, local stack and servers
        // on ports of their own and stops them; the containers' caches are keyed by the broker's URL, so one file's
        // emulator never answers for another's. The CLI is bundled once for the run (test/support/cli-bundle.ts).
        extends: true,
        test: {
          name: 'slow',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // Whole stacks and child processes: a test or hook that takes seconds when idle gets minutes under load.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          isolate: false,
          globalSetup: [
            'test/support/temp-dir-setup.ts',
            'test/support/cli-bundle.ts',
            'test/support/stack-permissions-setup.ts',
          ],
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * Files that share one process per worker (isolate: false): a fresh process per file costs each of them
 * more than its tests (a fork, then the desk's modules imported again), and these were run that way and
 * pass in any order: they close what they open and keep no state outside their temp directories. Measured
 * on two loaded cores, each set run twice each way: test/unit 54-93 s isolated, 22-29 s shared;
 * test/integration/{store,export,desk} 81-84 s isolated, 42-54 s shared.
 */
const SHARED_PROCESS = [
  'test/unit/**/*.test.ts',
  'test/integration/store/**/*.test.ts',
  'test/integration/export/**/*.test.ts',
  'test/integration/desk/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Holds the proxy's default port for the run: a test that forgets `port: 0` fails on every machine.
    globalSetup: ['test/setup/hold-default-port.ts'],
    // Real servers and SQLite files: processes, not threads, so a native module or a hung socket in one
    // file cannot disturb another. Two cores: at most two files at once.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll ends as soon as its condition holds; its default second is too short on a loaded
    // two-core machine (a commit, a browser's repaint), where the wait is the machine's, not the code's.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      { extends: true, test: { name: 'shared-process', include: SHARED_PROCESS, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED_PROCESS } },
    ],
  },
});

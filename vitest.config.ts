import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
  },
});

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __PETSTORE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/helpers/scratch-tmpdir.ts'],
    reporters: ['default', './test/helpers/plain-summary-reporter.ts'],
    // Most of the suite's time is spent waiting on child processes and sockets, not on a core:
    // a worker more than the cores keeps them busy (on 2 cores, one worker took 267 s and
    // three 136 s). Capped: each worker is a process of its own.
    maxWorkers: Math.min(availableParallelism() + 1, 8),
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

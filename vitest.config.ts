import { readFileSync } from 'node:fs';
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
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

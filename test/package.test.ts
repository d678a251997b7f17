import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What `npm pack` puts in the tarball (from the dist/ the build made). */
function packedFiles(): string[] {
  const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(json) as { files: { path: string }[] }[];
  return pack!.files.map((file) => file.path).sort();
}

describe('the npm package', () => {
  it('holds what users need and nothing else', () => {
    const files = packedFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'bin/petstore.js',
        'dist/main.cjs',
        'dist/help.json',
        'docs/man/man1/petstore.1',
        'completions/petstore.bash',
        'completions/_petstore',
        'completions/petstore.fish',
        'docs/README.md',
        'docs/commands/pets-list.md',
      ]),
    );
    const expected =
      /^(README\.md|package\.json|bin\/petstore\.js|dist\/(main\.cjs|help\.json|chunks\/[\w-]+\.cjs)|completions\/(petstore\.bash|_petstore|petstore\.fish)|docs\/(commands\/|reference\/)?[\w-]+\.md|docs\/man\/man1\/petstore\.1)$/;
    expect(files.filter((file) => !expected.test(file))).toEqual([]);
  }, 30_000);
});

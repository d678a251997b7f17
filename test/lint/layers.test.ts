import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layersPlugin } from '../../scripts/lint/layers.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** The layer rule's messages for `code` as if it were the file at src/`path`. */
function layerProblems(path: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { layers: layersPlugin },
        rules: { 'layers/allowed-imports': 'error' },
      },
    ],
    join(SRC, path),
  );
  return messages.map((message) => message.message);
}

describe('the layer rule', () => {
  it.each([
    ['api/client.ts', "import type { Context } from '../context/context.js';", 'api layer'],
    ['api/client.ts', "const s = await import('../sandbox/server.js');", 'sandbox/server.ts'],
    ['api/client.ts', "import chalk from 'chalk';", 'package "chalk"'],
    ['sandbox/server.ts', "import { main } from '../main.js';", 'sandbox layer'],
    ['config/profiles.ts', "import type { Settings } from '../context/settings.js';", 'config'],
    ['output/render.ts', "import { ConfigStore } from '../config/store.js';", 'output layer'],
    ['context/context.ts', "const s = await import('../sandbox/server.js');", 'context layer'],
    ['commands/pets/list.ts', "import { buildProgram } from '../../cli/program.js';", 'commands'],
    ['core/types.ts', "export * from '../api/client.js';", 'core layer'],
    [
      'commands/auth/status.ts',
      "import { profileView } from '../profile/list.js';",
      "commands/auth/ may not import commands/profile/list.ts: one noun's folder never imports another's",
    ],
    [
      'commands/sandbox/serve.ts',
      "import { runPetsAdd } from '../pets/add.js';",
      'commands/sandbox/ may not import commands/pets/add.ts',
    ],
    // Forms an outside review found unchecked: a type query, a template path, a computed
    // path, createRequire.
    [
      'commands/pets/list.ts',
      "type T = import('../../sandbox/server.js').RunningSandbox;",
      'the commands layer may not import sandbox/server.ts',
    ],
    [
      'commands/pets/list.ts',
      "type L = typeof import('../auth/login.js');",
      'commands/pets/ may not import commands/auth/login.ts',
    ],
    [
      'commands/pets/list.ts',
      'const s = await import(`../../sandbox/server.js`);',
      'the commands layer may not import sandbox/server.ts',
    ],
    [
      'commands/pets/list.ts',
      "const m = '../auth/login.js'; const l = await import(m);",
      'import() with a computed path cannot be checked',
    ],
    [
      'commands/pets/list.ts',
      "import { createRequire } from 'node:module'; createRequire(import.meta.url)('../auth/login.js');",
      'createRequire is not used in src/',
    ],
  ])('refuses %s importing: %s', (path, code, message) => {
    expect(layerProblems(path, code).join('\n')).toContain(message);
  });

  it.each([
    ['api/client.ts', "import { UsageError } from '../core/errors.js';"],
    ['context/resolve-target.ts', "const l = await import('../sandbox/launcher.js');"],
    ['commands/sandbox/serve.ts', "const s = await import('../../sandbox/server.js');"],
    ['api/transport.ts', "import { request } from 'undici';"],
    ['commands/pets/import.ts', "import { runPetsImportFile } from './import-file.js';"],
    [
      'commands/profile/list.ts',
      "import { PROFILE_COLUMNS } from '../../cmdutil/profile-view.js';",
    ],
    ['sandbox/database.ts', "import type { DatabaseSync } from 'node:sqlite';"],
  ])('allows %s importing: %s', (path, code) => {
    expect(layerProblems(path, code)).toEqual([]);
  });
});

describe('the cycle check', () => {
  const script = resolve(import.meta.dirname, '../../scripts/lint/check-cycles.mjs');

  function checkTree(files: Record<string, string>) {
    const root = mkdtempSync(join(tmpdir(), 'petstore-cycles-'));
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), content);
    }
    return spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  }

  it('fails on a cycle made of type-only and dynamic imports', () => {
    const result = checkTree({
      'a.ts': "import type { B } from './b/b.js'; export type A = B;",
      'b/b.ts': "export type B = number; export const load = () => import('../a.js');",
      'c.ts': "import type { A } from './a.js'; export type C = A;",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/a\.ts <-> .*b\.ts|b\.ts <-> .*a\.ts/);
    expect(result.stderr).not.toContain('c.ts');
  });

  it('passes src/ as it is', () => {
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

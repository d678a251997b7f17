import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { BIN, freshHome } from '../helpers/run-cli.js';

const BASH_SCRIPT = fileURLToPath(new URL('../../completions/petstore.bash', import.meta.url));

/** A home whose config holds two profiles of its own. */
function homeWithProfiles(): string {
  const home = freshHome();
  mkdirSync(join(home, '.config', 'petstore'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'petstore', 'config.json'),
    JSON.stringify({
      schemaVersion: 1,
      profiles: { 'qa-east': { baseUrl: 'https://qa.test/v1' }, demo: {} },
    }),
  );
  return home;
}

/** What bash completes for the words, with the committed script and petstore on PATH. */
function bashComplete(words: string[], home: string): string[] {
  const bin = mkdtempSync(join(tmpdir(), 'petstore-path-'));
  writeFileSync(join(bin, 'petstore'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'petstore'), 0o755);
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${BASH_SCRIPT}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _petstore; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home } },
  );
  return out.split('\n').filter(Boolean);
}

describe('completion of live profile names', () => {
  it('petstore __complete profiles lists the built-in and stored profiles', async () => {
    const io = fakeIO();
    expect(await main(['__complete', 'profiles'], io, { HOME: homeWithProfiles() })).toBe(0);
    expect(io.out()).toBe('production\nstaging\nsandbox\ndemo\nqa-east\n');
  });

  it('a missing or damaged config still completes the built-in names, silently', async () => {
    const home = freshHome();
    mkdirSync(join(home, '.config', 'petstore'), { recursive: true });
    writeFileSync(join(home, '.config', 'petstore', 'config.json'), '{ not json');
    const io = fakeIO();
    expect(await main(['__complete', 'profiles'], io, { HOME: home })).toBe(0);
    expect(io.out()).toBe('production\nstaging\nsandbox\n');
    expect(io.err()).toBe('');
  });

  it('bash completes --profile and profile use from the config', () => {
    const home = homeWithProfiles();
    expect(bashComplete(['petstore', '--profile', 'q'], home)).toEqual(['qa-east']);
    expect(bashComplete(['petstore', 'pets', 'list', '--profile', ''], home)).toEqual([
      'production',
      'staging',
      'sandbox',
      'demo',
      'qa-east',
    ]);
    expect(bashComplete(['petstore', 'profile', 'use', 'd'], home)).toEqual(['demo']);
    expect(bashComplete(['petstore', 'pets', 'list', '--st'], home)).toEqual(['--status']);
  });
});

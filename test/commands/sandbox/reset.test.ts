import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSandboxReset } from '../../../src/commands/sandbox/reset.js';
import { openSandboxDatabase } from '../../../src/sandbox/server.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

/** A sandbox database file holding `count` pets. */
function databaseWith(count: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-reset-')), 'sandbox.db');
  const db = openSandboxDatabase(file);
  for (let index = 0; index < count; index++) db.createPetJson(`pet ${index}`, 1, undefined);
  db.close();
  return file;
}

function petsIn(file: string): number {
  const db = openSandboxDatabase(file);
  try {
    return (JSON.parse(db.listPetsPage({ limit: 100 }).json) as unknown[]).length;
  } finally {
    db.close();
  }
}

describe('sandbox reset: flags to options (runF)', () => {
  it.each([
    [['sandbox', 'reset'], { yes: false }],
    [['sandbox', 'reset', '-y'], { yes: true }],
    [['sandbox', 'reset', '--db', 'x.db'], { database: 'x.db', yes: false }],
    [['sandbox', 'reset', '--yes', '--db', 'x.db'], { database: 'x.db', yes: true }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it('refuses a --db with no file name', async () => {
    const result = await runF(['sandbox', 'reset', '--db']);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
  });
});

describe('runSandboxReset', () => {
  it('with --yes, empties the database and says how many pets went', async () => {
    const file = databaseWith(3);
    const { ctx, io } = verbContext();
    await runSandboxReset(ctx, { database: file, yes: true });
    expect(io.err()).toContain('Sandbox emptied: 3 pet(s) deleted.');
    expect(petsIn(file)).toBe(0);
  });

  it('without --yes and with no terminal to ask at, deletes nothing', async () => {
    const file = databaseWith(2);
    const { ctx } = verbContext();
    await expect(runSandboxReset(ctx, { database: file, yes: false })).rejects.toThrow(
      /needs confirmation/,
    );
    expect(petsIn(file)).toBe(2);
  });

  it('a database that does not exist is already empty, and is not made', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-reset-')), 'none.db');
    const { ctx, io } = verbContext();
    await runSandboxReset(ctx, { database: file, yes: true });
    expect(io.err()).toContain('The sandbox is already empty.');
    expect(existsSync(file)).toBe(false);
  });
});

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { describe, expect, it } from 'vitest';
import { inputShown } from '../../../src/commands/journal/columns.js';
import { runJournalList } from '../../../src/commands/journal/list.js';
import { runJournalPrune } from '../../../src/commands/journal/prune.js';
import { runJournalShow } from '../../../src/commands/journal/show.js';
import { runPetsImportFile } from '../../../src/commands/pets/import-file.js';
import type { JournalSummary } from '../../../src/bulk/journal-list.js';
import { importRequest } from '../../helpers/import-request.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

/** `journal list` and `journal prune` called directly, over journals a batch run left. */

async function setup() {
  const service = await sandboxService();
  const env = { ...service.env, XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'petstore-state-')) };
  const input = join(mkdtempSync(join(tmpdir(), 'petstore-jrun-')), 'pets.csv');
  writeFileSync(input, 'name,categoryId\nA,1\nB,2\n');
  const { ctx } = verbContext({ env, raw: { output: 'ndjson' } });
  await runPetsImportFile(ctx, importRequest({ file: input, concurrency: 2 }));
  return { env, input };
}

describe('journal list, show and prune', () => {
  it('show: one NDJSON line per record to stdout, what the journal is to stderr', async () => {
    const { env, input } = await setup();
    const listed = verbContext({ env, raw: { output: 'json' } });
    await runJournalList(listed.ctx);
    const [journal] = JSON.parse(listed.io.out()) as JournalSummary[];
    const shown = verbContext({ env, raw: { output: 'ndjson' } });
    await runJournalShow(shown.ctx, { journal: journal!.batch! });
    const lines = shown.io
      .out()
      .trimEnd()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { record: number; outcome: string; pet: { name: string } },
      );
    expect(lines.map((line) => [line.record, line.outcome, line.pet.name])).toEqual([
      [1, 'created', 'A'],
      [2, 'created', 'B'],
    ]);
    expect(shown.io.err()).toContain(`Batch ${journal!.batch}: 2 records of ${input}`);
    const csv = verbContext({ env, raw: { output: 'csv' } });
    await runJournalShow(csv.ctx, { journal: journal!.path });
    expect(csv.io.out().split(/\r?\n/)[0]).toBe('record,outcome,id,name,attempt,error,key');
  });

  it('list: one row per journal, with its counts; a table at a terminal', async () => {
    const { env, input } = await setup();
    const json = verbContext({ env, raw: { output: 'json' } });
    await runJournalList(json.ctx);
    const [journal] = JSON.parse(json.io.out()) as JournalSummary[];
    expect(journal).toMatchObject({ input, records: 2, created: 2, finished: true });

    const table = verbContext({ env, raw: { output: 'table' }, tty: true });
    await runJournalList(table.ctx);
    expect(table.io.out()).toMatch(/BATCH.*INPUT.*CREATED.*FINISHED/);
    expect(table.io.out()).toContain(journal!.batch!.slice(0, 8));
  });

  it('prune: --older-than spares a recent journal; then it goes, and the list is empty', async () => {
    const { env } = await setup();
    const spared = verbContext({ env, raw: { output: 'json' } });
    await runJournalPrune(spared.ctx, { olderThan: 3_600_000 });
    expect(JSON.parse(spared.io.out())).toEqual([]);
    expect(spared.io.err()).toContain('Removed 0 journals older than 60 min.');

    const pruned = verbContext({ env, raw: { output: 'json' } });
    await runJournalPrune(pruned.ctx, {});
    const [gone] = JSON.parse(pruned.io.out()) as JournalSummary[];
    expect(existsSync(gone!.path)).toBe(false);
    expect(existsSync(`${gone!.path}-wal`)).toBe(false);

    const empty = verbContext({ env, raw: { output: 'table' }, tty: true });
    await runJournalList(empty.ctx);
    expect(empty.io.out()).toBe('');
    expect(empty.io.err()).toMatch(/No journals in \S+petstore\/journals\./);
  });

  it('prune --older-than 0s takes every finished journal, however new', async () => {
    const { env } = await setup();
    const io = fakeIO();
    expect(await main(['-o', 'json', 'journal', 'prune', '--older-than', '0s'], io, env)).toBe(0);
    const [gone] = JSON.parse(io.out()) as JournalSummary[];
    expect(existsSync(gone!.path)).toBe(false);
    const bad = fakeIO();
    expect(await main(['journal', 'prune', '--older-than', 'soon'], bad, env)).toBe(2);
  });

  it('list at an 80-column terminal: no line wider, each input told by its name, each batch by a start --resume takes', async () => {
    const { env } = await setup();
    // Two runs of inputs whose paths differ only at their end.
    const folder = mkdtempSync(join(tmpdir(), 'petstore-a-long-folder-name-for-every-export-'));
    for (const year of ['2025', '2026']) {
      const input = join(folder, `spring-adoption-export-${year}.csv`);
      writeFileSync(input, `name,categoryId\nA,${year}\n`);
      expect(await main(['pets', 'import', input], fakeIO(), env)).toBe(0);
    }
    const io = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'list'], io, env)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(io.out()).toContain('export-2025.csv');
    expect(io.out()).toContain('export-2026.csv');
    // The batch as shown completes its run.
    const shown = /^(\S+)\s+\S*export-2026\.csv/m.exec(io.out())![1]!;
    expect(shown.length).toBeLessThan(36);
    const resumed = fakeIO();
    expect(await main(['pets', 'import', '--resume', shown], resumed, env)).toBe(0);
    expect(resumed.err()).toContain('earlier run');
  });
});

describe('journal show and prune at an 80-column terminal', () => {
  it('show keeps names whole before keys, and no line is wider, stderr too', async () => {
    const { env } = await setup();
    const input = join(mkdtempSync(join(tmpdir(), 'petstore-wide-')), 'names.csv');
    const name = 'Sir Reginald Fluffington the 3rd';
    writeFileSync(input, `name,categoryId\n${name},1\nBob,2\n`);
    expect(await main(['pets', 'import', input], fakeIO(), env)).toBe(0);
    const listed = fakeIO();
    expect(await main(['-o', 'json', 'journal', 'list'], listed, env)).toBe(0);
    const journal = (JSON.parse(listed.out()) as JournalSummary[]).find((j) => j.input === input)!;
    const io = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'show', journal.batch!], io, env)).toBe(0);
    for (const line of `${io.out()}${io.err()}`.trimEnd().split('\n')) {
      expect(line.length).toBeLessThanOrEqual(80);
    }
    expect(io.out()).toContain(name);
    // The key gave way: cut, not whole.
    expect(io.out()).toMatch(/pets-[0-9a-f]*…/);
    expect(io.err()).toContain(`Batch ${journal.batch}: 2 records of`);
  });

  it('prune says, with no bare header, when nothing is to go; else short batches, no path', async () => {
    const { env } = await setup();
    const none = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'prune', '--older-than', '30d'], none, env)).toBe(
      0,
    );
    expect(none.out()).toBe('');
    expect(none.err()).toContain('Removed 0 journals older than 30 d.');
    const some = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'prune', '--dry-run'], some, env)).toBe(0);
    const lines = some.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^BATCH\s+INPUT.*FINISHED$/);
    expect(lines[1]).toMatch(/^[0-9a-f]{8}\s/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('journal verbs: flags to options (runF)', () => {
  it.each([
    [['journal', 'list'], {}],
    [['journal', 'show', 'b1'], { journal: 'b1' }],
    [['journal', 'prune'], {}],
    [
      ['journal', 'prune', '--older-than', '7d', '--dry-run'],
      { olderThan: 604_800_000, dryRun: true },
    ],
    [['journal', 'prune', '--older-than', '90m'], { olderThan: 5_400_000 }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it.each([
    [['journal', 'show'], "missing required argument 'journal'"],
    [['journal', 'prune', '--older-than', 'soon'], '--older-than'],
  ])('%j is refused before the verb runs', async (argv, message) => {
    const result = await runF(argv);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    expect(result.err).toContain(message);
  });
});

describe('a record the service refused', () => {
  it('is named in journal show, as it was sent', async () => {
    const { env } = await setup();
    const input = join(mkdtempSync(join(tmpdir(), 'petstore-refused-')), 'long.csv');
    // The service takes names of at most 256 characters: this one it refuses.
    const long = `Refused ${'x'.repeat(300)}`;
    writeFileSync(input, `name,categoryId\nKept,1\n${long},2\n`);
    expect(await main(['pets', 'import', input], fakeIO(), env)).toBe(5);
    const listed = fakeIO();
    expect(await main(['-o', 'json', 'journal', 'list'], listed, env)).toBe(0);
    const journal = (JSON.parse(listed.out()) as JournalSummary[]).find((j) => j.input === input)!;
    const shown = fakeIO();
    expect(await main(['-o', 'ndjson', 'journal', 'show', journal.batch!], shown, env)).toBe(0);
    const rows = shown
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { outcome: string; error?: { name?: string } });
    expect(rows[1]).toMatchObject({ outcome: 'failed' });
    expect(rows[1]!.error!.name).toBe(long.slice(0, 200));
    const table = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'show', journal.batch!], table, env)).toBe(0);
    expect(table.out()).toMatch(/failed\s+-\s+Refused xx/);
  });
});

describe('a file in the journals folder that is no journal', () => {
  it('is listed by its own name, counting nothing', async () => {
    const { env } = await setup();
    const folder = join(env.XDG_STATE_HOME, 'petstore', 'journals');
    writeFileSync(join(folder, 'notes.journal'), 'my notes\n');
    const io = fakeIO({ tty: true, columns: 80 });
    expect(await main(['--no-color', 'journal', 'list'], io, env)).toBe(0);
    const row = io
      .out()
      .split('\n')
      .find((line) => line.includes('notes.journal'))!;
    expect(row).toMatch(/^-\s+notes\.journal\s+-\s+-\s+-\s+-\s+.*not a journal$/);
  });
});

describe('where a batch came from, as a person reads it', () => {
  it.each([
    [{ input: '-', client: 'claude-code 1.2.0' }, 'agent: claude-code 1.2.0'],
    [{ input: '-', client: undefined }, 'standard input'],
    [{ input: '/in/pets.csv', client: undefined }, '/in/pets.csv'],
  ])('%j is %s', (journal, shown) => {
    expect(inputShown(journal)).toBe(shown);
  });
});

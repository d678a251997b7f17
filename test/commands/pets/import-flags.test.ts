import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPetsImport } from '../../../src/commands/pets/import.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { FakeTransport } from '../../helpers/fake-transport.js';
import { freshHome } from '../../helpers/run-cli.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

/** What a bulk `pets add` turns into when only some flags are given. */
const NEW_BULK_RUN = {
  resume: undefined,
  journal: undefined,
  concurrency: 4,
  failFast: false,
  dryRun: false,
  retryFailed: false,
  retryUnknown: false,
  printAll: false,
  skipInvalid: false,
  rejects: undefined,
  batchId: undefined,
  shard: undefined,
  again: false,
  keyWindow: { windowMs: 24 * 3_600_000, marginMs: 3_600_000, ignore: false },
};

describe('pets import: flags to options (runF)', () => {
  it.each([
    [
      ['pets', 'import', '-', '--concurrency', '8', '--fail-fast'],
      { ...NEW_BULK_RUN, file: '-', concurrency: 8, failFast: true },
    ],
    [
      ['pets', 'import', '--resume', 'j', '--retry-unknown', '--retry-failed'],
      { ...NEW_BULK_RUN, file: undefined, resume: 'j', retryFailed: true, retryUnknown: true },
    ],
    [
      ['pets', 'import', 'p.ndjson', '--journal', 'p.journal'],
      { ...NEW_BULK_RUN, file: 'p.ndjson', journal: 'p.journal' },
    ],
    [
      ['pets', 'import', 'x.csv', '--skip-invalid', '--rejects', 'bad.csv', '--batch-id', 'b-1'],
      { ...NEW_BULK_RUN, file: 'x.csv', skipInvalid: true, rejects: 'bad.csv', batchId: 'b-1' },
    ],
    [
      [
        'pets',
        'import',
        'x.tsv',
        '--input-format',
        'tsv',
        '--key-window',
        '2h',
        '--ignore-key-window',
      ],
      {
        ...NEW_BULK_RUN,
        file: 'x.tsv',
        inputFormat: 'tsv',
        keyWindow: { windowMs: 2 * 3_600_000, marginMs: 3_600_000, ignore: true },
      },
    ],
    [
      ['pets', 'import', 'x.csv', '--shard', '2/4', '--batch-id', 'job-7', '--again'],
      {
        ...NEW_BULK_RUN,
        file: 'x.csv',
        shard: { index: 2, count: 4 },
        batchId: 'job-7',
        again: true,
      },
    ],
    [['pets', 'import', '--template', 'csv'], { template: 'csv' }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it.each([
    [
      ['pets', 'import', 'x', '--concurrency', '17'],
      '--concurrency must be a whole number from 1 to 16',
    ],
    [['pets', 'import', 'x', '--print-all'], '--print-all goes with --resume JOURNAL'],
    [['pets', 'import', '--template', 'xml'], '--template'],
    [['pets', 'import', 'x', '--shard', '2/4'], '--shard needs --batch-id'],
    [['pets', 'import', 'x', '--shard', '5/4', '--batch-id', 'b'], '--shard must be I/N'],
    [['pets', 'import', 'x', '--shard', '0/4', '--batch-id', 'b'], '--shard must be I/N'],
    [['pets', 'import', 'x', '--shard', 'two', '--batch-id', 'b'], '--shard must be I/N'],
  ])('%j is refused before the verb runs', async (argv, message) => {
    const result = await runF(argv);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    expect(result.err).toContain(message);
  });
});

describe('runPetsImport --template', () => {
  it.each([
    ['csv', 'name,categoryId,status\r\n'],
    ['tsv', 'name\tcategoryId\tstatus\n'],
  ] as const)('prints the start of a %s input, and sends nothing', async (format, header) => {
    const transport = new FakeTransport();
    const { ctx, io } = verbContext({ transport });
    await runPetsImport(ctx, { template: format });
    expect(io.out().startsWith(header)).toBe(true);
    expect(transport.requests).toEqual([]);
  });
});

describe('pets import: files that would clash', () => {
  const run = async (args: string[]) => {
    const io = fakeIO();
    const code = await main(['--error-format', 'text', 'pets', 'import', ...args], io, {
      HOME: freshHome(),
    });
    return { code, err: io.err() };
  };
  const sheet = () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-clash-'));
    const file = join(folder, 'pets.csv');
    writeFileSync(file, 'name,categoryId\nRex,1\n,2\n');
    return { folder, file };
  };

  it('--rejects and --journal on one file are refused before anything is written', async () => {
    const { folder, file } = sheet();
    const same = join(folder, 'out.csv');
    const result = await run([file, '--skip-invalid', '--rejects', same, '--journal', same]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--rejects and --journal name the same file');
    expect(existsSync(same)).toBe(false);
  });

  it('--journal naming a folder says it is a folder', async () => {
    const { folder, file } = sheet();
    const result = await run([file, '--skip-invalid', '--journal', folder]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('is a folder; a journal is a file');
    expect(result.err).not.toContain('--resume');
  });
});

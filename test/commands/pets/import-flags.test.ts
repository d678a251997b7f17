import { describe, expect, it } from 'vitest';
import { runPetsImport } from '../../../src/commands/pets/import.js';
import { FakeTransport } from '../../helpers/fake-transport.js';
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

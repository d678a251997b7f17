import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  runPetsImportFile,
  type PetsImportFileOptions,
} from '../../../src/commands/pets/import-file.js';
import { importRequest } from '../../helpers/import-request.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { verbContext } from '../../helpers/verb-context.js';

/** `pets import` called directly: what it says at a terminal, and in a pipe. */

const options = (file: string, overrides: Partial<PetsImportFileOptions> = {}) =>
  importRequest({ file, ...overrides });

async function setup(names: string[]) {
  const service = await sandboxService();
  const input = join(mkdtempSync(join(tmpdir(), 'petstore-add-file-run-')), 'pets.ndjson');
  writeFileSync(input, names.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
  return { service, input };
}

describe('runPetsImportFile', () => {
  it('in a pipe: a JSON line per pet, the journal named, the JSON summary last', async () => {
    const { service, input } = await setup(['A', 'B', 'C']);
    const { ctx, io } = verbContext({ env: service.env, raw: { output: 'ndjson' } });
    await runPetsImportFile(ctx, options(input));
    const names = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { name: string }).name);
    expect(names.sort()).toEqual(['A', 'B', 'C']);
    const err = io.err().trimEnd().split('\n');
    // Errors as JSON: every stderr line an object, the journal's first.
    const objects = err.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects[0]).toMatchObject({
      journal: {
        path: expect.stringMatching(/\.journal$/) as string,
        toSend: 3,
        resume: expect.stringMatching(/pets import --resume \S+ --retry-unknown$/) as string,
      },
    });
    expect(JSON.parse(err.at(-1)!)).toMatchObject({ summary: { records: 3, createdNow: 3 } });
  });

  it('at a terminal: the table once and one summary, and no line per created pet', async () => {
    const { service, input } = await setup(['A', 'B']);
    const { ctx, io } = verbContext({ env: service.env, raw: { output: 'table' }, tty: true });
    await runPetsImportFile(ctx, options(input));
    expect(io.out().match(/\bA\b/g)).toHaveLength(1);
    expect(io.err()).toMatch(/2 records to \S+.*: created 2 now\.\n$/);
    expect(io.err()).not.toMatch(/created .*A\n/);
  });

  it('a dry run: a line per request, and the count with the batch', async () => {
    const { service, input } = await setup(['A', 'B']);
    const { ctx, io } = verbContext({ env: service.env, raw: { output: 'ndjson' } });
    await runPetsImportFile(ctx, options(input, { dryRun: true }));
    expect(io.out().trimEnd().split('\n')).toHaveLength(2);
    expect(io.err()).toMatch(/Dry run: 2 request\(s\) shown, none sent \(batch [\w-]+\)\./);
    expect(await service.names()).toEqual([]);
  });
});

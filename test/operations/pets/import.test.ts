import { readJournalFile } from '../../helpers/journal-file.js';
import { createReadStream, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Pet } from '../../../src/core/interface.js';
import type { RequestPreview } from '../../../src/api/request.js';
import { importPets, type ImportEvents } from '../../../src/operations/pets/import.js';
import { importRequest } from '../../helpers/import-request.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { useTestClients } from '../../helpers/test-client.js';

const client = useTestClients({ apiKey: 'sk_in_process_sandbox' });

const request = importRequest;

/** Events that record what the batch said, with created pets written as lines. */
function recorder(options: { table?: boolean } = {}) {
  const said = {
    lines: [] as string[],
    table: [] as Pet[],
    journals: [] as { journal: string; toSend: number }[],
    reported: [] as number[],
    dryRun: [] as number[],
  };
  const events: ImportEvents<RequestPreview> = {
    onJournal: ({ journal, toSend }) => said.journals.push({ journal, toSend }),
    rows: options.table
      ? undefined
      : {
          header: '',
          line: (pet) => `${pet.name}\n`,
          write: (text) => {
            said.lines.push(...text.split('\n').filter(Boolean));
            return Promise.resolve(Buffer.byteLength(text));
          },
        },
    printTable: (pets) => {
      said.table.push(...pets);
      return Promise.resolve(true);
    },
    reportRecord: (_error, record) => said.reported.push(record.position),
    say: () => undefined,
    onSettled: () => undefined,
    onAbandoned: () => undefined,
    onDryRun: (record) => void said.dryRun.push(record),
    warn: () => undefined,
    stdoutFailure: () => undefined,
  };
  return { said, events };
}

async function setup(names: string[]) {
  const service = await sandboxService();
  const folder = mkdtempSync(join(tmpdir(), 'petstore-batch-op-'));
  const input = join(folder, 'pets.ndjson');
  writeFileSync(
    input,
    names.map((name) => `${JSON.stringify({ name, categoryId: 1 })}\n`).join(''),
  );
  const reached = {
    client: client({ baseUrl: service.env.PETSTORE_BASE_URL }).instance,
    target: { label: 'the test sandbox', service: service.env.PETSTORE_BASE_URL },
  };
  const deps = {
    connect: () => Promise.resolve(reached),
    readInput: (path: string) =>
      existsSync(path)
        ? Promise.resolve(createReadStream(path))
        : Promise.reject(Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })),
    journalsDir: join(folder, 'state', 'journals'),
    signals: { onSignal: () => () => undefined },
    resumeCommand: (journal: string) => `resume ${journal}`,
  };
  return { service, input, deps };
}

describe('importPets', () => {
  it('creates every record once, prints each as it is confirmed, and journals the run', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `pet ${i}`);
    const { service, input, deps } = await setup(names);
    const { said, events } = recorder();
    const outcome = await importPets(deps, request({ file: input }), events);
    expect(outcome.kind).toBe('sent');
    if (outcome.kind !== 'sent') return;
    expect(outcome.error).toBeUndefined();
    expect(outcome.counts).toMatchObject({ records: 30, createdNow: 30, failed: 0, unknown: 0 });
    expect(outcome.summary).toBe('30 records to the test sandbox: created 30 now');
    expect((await service.names()).sort()).toEqual([...names].sort());
    expect([...said.lines].sort()).toEqual([...names].sort());
    expect(said.journals).toEqual([{ journal: outcome.journal, toSend: 30 }]);
    const journal = await readJournalFile(outcome.journal);
    expect(journal.batch).toBe(outcome.batch);
    expect(journal.states.size).toBe(30);
  });

  it('a resume of a finished run sends nothing and prints nothing again', async () => {
    const { service, input, deps } = await setup(['A', 'B', 'C']);
    const first = await importPets(deps, request({ file: input }), recorder().events);
    if (first.kind !== 'sent') throw new Error('not sent');
    const { said, events } = recorder();
    const again = await importPets(deps, request({ resume: first.journal }), events);
    if (again.kind !== 'sent') throw new Error('not sent');
    expect(again.counts).toMatchObject({ createdNow: 0, createdEarlier: 3 });
    expect(again.printedEarlier).toBe(3);
    expect(said.lines).toEqual([]);
    expect(said.journals[0]!.toSend).toBe(0);
    expect(await service.names()).toHaveLength(3);
  });

  it('with no line output, gives the pets for one table at the end, in input order', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `pet ${i}`);
    const { input, deps } = await setup(names);
    const { said, events } = recorder({ table: true });
    await importPets(deps, request({ file: input, concurrency: 16 }), events);
    expect(said.table.map((pet) => pet.name)).toEqual(names);
  });

  it('a dry run says each request and how many, and neither sends nor journals', async () => {
    const { service, input, deps } = await setup(['A', 'B', 'C']);
    const { said, events } = recorder();
    const outcome = await importPets(deps, request({ file: input, dryRun: true }), events);
    expect(outcome).toMatchObject({ kind: 'dry run', requests: 3 });
    expect(said.dryRun).toEqual([1, 2, 3]);
    expect(said.journals).toEqual([]);
    expect(await service.names()).toEqual([]);
  });

  it('refuses an input with a bad record before sending anything', async () => {
    const { service, input, deps } = await setup(['A']);
    writeFileSync(input, '{"name":"A","categoryId":1}\n{"name":"B"}\n');
    // The service is not even reached: no key, profile or sandbox can hide the input's fault.
    let connected = 0;
    const counting = { ...deps, connect: () => (connected++, deps.connect()) };
    for (const bad of [input, `${input}.missing`]) {
      await expect(importPets(counting, request({ file: bad }), recorder().events)).rejects.toThrow(
        /line 2: "categoryId" is required; nothing was sent|ENOENT/,
      );
    }
    await expect(
      importPets(counting, request({ resume: input }), recorder().events),
    ).rejects.toThrow(/not a petstore journal/);
    expect(connected).toBe(0);
    expect(await service.names()).toEqual([]);
  });
});

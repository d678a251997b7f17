import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalStore } from '../../../src/bulk/journal-store.js';
import { newJournal } from '../../helpers/journal-file.js';
import { bootId } from '../../../src/core/boot-id.js';
import { showJournal as show, type JournalRecord } from '../../../src/operations/journal/show.js';

/** The journal as `journal show` reads it: where, its header, and every record. */
async function showJournal(given: string, folder: string) {
  const records: JournalRecord[] = [];
  const shown = await show(given, folder, (some) => records.push(...some));
  return { ...shown, records };
}

/** A journal of four records as a run leaves it: created, failed, unknown, never sent. */
async function journalOfFour(): Promise<{ folder: string; path: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-show-'));
  const path = join(folder, '2026-11-28T00-00-00-000Z.batch-show.journal');
  const journal = newJournal(path, {
    input: '/in/pets.csv',
    records: 4,
    target: 'profile staging',
    service: 'https://staging.example/v1',
    at: new Date().toISOString(),
    batch: 'batch-show',
    boot: bootId(),
  });
  for (const record of [1, 2, 3]) {
    journal.append({ type: 'queued', record, digest: `d${record}`, key: `k${record}` });
    journal.append({ type: 'sending', record });
  }
  journal.append({ type: 'created', record: 1, pet: { id: 11, name: 'Ada', categoryId: 2 } });
  journal.append({ type: 'printed', record: 1 });
  journal.append({
    type: 'failed',
    record: 2,
    error: { code: 'invalid', message: 'name too long', status: 400 },
  });
  journal.append({
    type: 'unknown',
    record: 3,
    error: { code: 'network', message: 'connection reset', status: 0 },
  });
  await journal.close();
  return { folder, path };
}

describe('showJournal', () => {
  it('gives every record of the input, in order, by path or by batch id', async () => {
    const { folder, path } = await journalOfFour();
    for (const given of [path, 'batch-show']) {
      const shown = await showJournal(given, folder);
      expect(shown.path).toBe(path);
      expect(shown.header).toMatchObject({ batch: 'batch-show', records: 4 });
      expect(shown.records).toEqual([
        {
          record: 1,
          outcome: 'created',
          key: 'k1',
          attempt: 1,
          pet: { id: 11, name: 'Ada', categoryId: 2 },
          printed: true,
          replayed: false,
          error: undefined,
        },
        expect.objectContaining({
          record: 2,
          outcome: 'failed',
          key: 'k2',
          error: { code: 'invalid', message: 'name too long', status: 400 },
        }),
        expect.objectContaining({ record: 3, outcome: 'unknown', key: 'k3', pet: undefined }),
        expect.objectContaining({ record: 4, outcome: 'unsent', key: undefined }),
      ]);
    }
  });

  it('names what it cannot find', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-show-none-'));
    await expect(showJournal('no-such-batch', folder)).rejects.toThrow(
      /no journal no-such-batch: no such file, and no journal of a batch of that id/,
    );
  });

  it('says a journal a run holds is in use, and shows it once that run ends', async () => {
    const { folder, path } = await journalOfFour();
    const run = await JournalStore.open(path);
    await expect(showJournal(path, folder)).rejects.toThrow(/is in use by another petstore run/);
    await expect(showJournal('batch-show', folder)).rejects.toThrow(/is in use/);
    await run.close();
    expect((await showJournal('batch-show', folder)).records).toHaveLength(4);
  });
});

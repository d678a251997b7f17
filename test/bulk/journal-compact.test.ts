import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordKey } from '../../src/bulk/batch.js';
import { compactJournal } from '../../src/bulk/journal-compact.js';
import { readJournal } from '../../src/bulk/journal-read.js';
import { digestInput, parsePetsFile } from '../../src/bulk/records.js';

/** A journal as runs write it: a run and a resume, created, printed, refused and retried. */
function journalOf(outcomes: ('created' | 'failed' | 'retried' | 'unknown' | 'unprinted')[]) {
  const input = outcomes.map((_, i) => JSON.stringify({ name: `P${i}`, categoryId: i + 1 }));
  const digests = digestInput(parsePetsFile(input.join('\n'), 'pets.ndjson'));
  const batch = 'b-compact';
  const header = {
    version: 1,
    input: '/in/pets.ndjson',
    records: outcomes.length,
    target: 'profile sandbox',
    service: 'sandbox',
    batch,
    digest: digests.whole,
    digests: digests.compact,
  };
  const lines: unknown[] = [{ type: 'run', at: '2026-11-25T10:00:00.000Z', ...header }];
  const error = { code: 'invalid_body', message: 'refused', status: 400 };
  outcomes.forEach((outcome, i) => {
    const record = i + 1;
    const queue = (attempt: number) => {
      lines.push({
        type: 'queued',
        record,
        digest: digests.records[i],
        key: recordKey(batch, 'pets.ndjson', record, attempt),
      });
      lines.push({ type: 'sending', record });
    };
    const pet = { id: 100 + record, name: `P${i}`, categoryId: record, extra: 'kept' };
    queue(1);
    if (outcome === 'unknown') return;
    if (outcome === 'failed') return void lines.push({ type: 'failed', record, error });
    if (outcome === 'retried') {
      lines.push({ type: 'failed', record, error });
      lines.push({ type: 'resume', at: '2026-11-25T11:00:00.000Z', ...header });
      queue(2);
    }
    lines.push({
      type: 'created',
      record,
      pet,
      ...(outcome === 'retried' ? { replayed: true } : {}),
    });
    if (outcome !== 'unprinted') lines.push({ type: 'printed', record });
  });
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-compact-')), 'run.journal');
  writeFileSync(path, lines.map((line) => JSON.stringify(line) + '\n').join(''));
  return path;
}

/** What a later reader takes from a state: all of it but how it was written down. */
const meaning = async (path: string) =>
  [...(await readJournal(path)).states].map(([record, state]) => {
    // When its key was first sent is kept as the first run's start, not each run's.
    const rest: Partial<typeof state> = { ...state };
    delete rest.keySent;
    return { record, ...rest, digest: state.digest.slice(0, 16) };
  });

describe('a finished journal, compacted', () => {
  it('reads back as the same outcomes, keys, attempts, pets and prints, and is smaller', async () => {
    const path = journalOf(['created', 'failed', 'retried', 'unprinted', 'created', 'created']);
    const before = await meaning(path);
    const sizes = await compactJournal(path);
    expect(sizes?.after).toBeLessThan(sizes!.before);
    expect(statSync(path).size).toBe(sizes?.after);
    expect(await meaning(path)).toEqual(before);
    // Compacting again changes nothing.
    await compactJournal(path);
    expect(await meaning(path)).toEqual(before);
  });

  it('is left as it is while any record is unknown or unsent', async () => {
    const path = journalOf(['created', 'unknown']);
    const size = statSync(path).size;
    expect(await compactJournal(path)).toBeUndefined();
    expect(statSync(path).size).toBe(size);
  });
});

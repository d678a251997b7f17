import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordKey } from '../../src/bulk/batch.js';
import { SameInput } from '../../src/bulk/check.js';
import { writeHeader } from '../../src/bulk/journal-db.js';
import { JournalDraft } from '../../src/bulk/journal-draft.js';
import { JournalStore } from '../../src/bulk/journal-store.js';
import { planRecords, type BulkRecord } from '../../src/bulk/plan.js';
import { InputDigest, recordDigest, type ReadRecord } from '../../src/bulk/records.js';
import { bootId } from '../../src/core/boot-id.js';
import type { NewPet } from '../../src/core/interface.js';
import { editJournal } from '../helpers/journal-file.js';

const pet = fc.record({
  name: fc.string({ minLength: 1, maxLength: 8 }).filter((name) => name.trim() !== ''),
  categoryId: fc.integer({ min: 1, max: 3 }),
});

const folder = mkdtempSync(join(tmpdir(), 'petstore-plan-'));
let journals = 0;

function digestOf(pets: NewPet[]): string {
  const whole = new InputDigest();
  for (const p of pets) whole.add(p);
  return whole.digest();
}

/**
 * The journal a new run of `pets` leaves after sending the records at `sent` (0-based), each
 * of unknown outcome; in format 1 (`legacy`), as the version before keeps its digests.
 */
async function journalOf(pets: NewPet[], sent: number[], legacy = false): Promise<string> {
  const path = join(folder, `run-${journals++}.journal`);
  const draft = JournalDraft.begin(folder);
  pets.forEach((p, index) => draft.addInput(index + 1, index + 1, recordDigest(p)));
  const header = {
    input: '/in/pets.ndjson',
    records: pets.length,
    target: 't',
    service: 's',
    at: new Date().toISOString(),
    batch: 'b1',
    digest: digestOf(pets),
    boot: bootId(),
  };
  draft.finish(path, (db) => writeHeader(db, header));
  const store = JournalStore.create(path, header);
  for (const index of sent) {
    const key = recordKey('b1', 'pets.ndjson', index + 1);
    store.append({ type: 'queued', record: index + 1, digest: recordDigest(pets[index]!), key });
    store.append({ type: 'sending', record: index + 1 });
  }
  await store.close();
  if (legacy) {
    const compact = Buffer.from(pets.map((p) => recordDigest(p).slice(0, 16)).join(''), 'hex');
    editJournal(path, 'UPDATE journal SET format = 1, digests = ?', compact.toString('base64'));
    editJournal(path, 'DROP TABLE inputs');
  }
  return path;
}

/** The input read again, checked against the journal as a resume checks it. */
function checkAgainst(path: string, pets: NewPet[]): Promise<void> {
  return JournalStore.reading(path, (journal) => {
    const same = new SameInput(journal, journal.header(), bootId());
    pets.forEach((p, index) => same.record(index + 1, recordDigest(p)));
    same.end(pets.length, digestOf(pets));
  });
}

function* asRecords(pets: NewPet[]): Generator<ReadRecord> {
  for (const [index, p] of pets.entries()) {
    const where = `line ${index + 1}`;
    yield {
      position: index + 1,
      where,
      pet: p,
      reasons: [],
      written: '',
      hadId: false,
      statusChanged: false,
    };
  }
}

/** What a run plans to send, against the journal at `path` if any. */
async function planned(pets: NewPet[], batch: string, path?: string, retryUnknown = false) {
  const plan = async (
    states?: Iterable<[number, import('../../src/bulk/record-states.js').RecordState]>,
  ) => {
    const send: BulkRecord[] = [];
    const records = asRecords(pets);
    for await (const record of planRecords(
      {
        records,
        expected: pets.length,
        batch,
        inputName: 'pets.ndjson',
        namedBatch: false,
        shard: undefined,
        same: () => true,
        states,
      },
      { retryFailed: false, retryUnknown },
      () => undefined,
    )) {
      send.push(record);
    }
    return send;
  };
  if (path === undefined) return plan();
  return JournalStore.reading(path, (journal) => plan(journal.states(bootId())));
}

describe('a resume refuses any change to its input', () => {
  it('names the first record changed, whether the first run sent it or not, in either format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pet, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        pet,
        fc.boolean(),
        async (pets, sentCount, at, replacement, legacy) => {
          const sent = Array.from({ length: sentCount % (pets.length + 1) }, (_, i) => i);
          const path = await journalOf(pets, sent, legacy);
          const index = at % pets.length;
          fc.pre(JSON.stringify(pets[index]) !== JSON.stringify(replacement));
          const edited = pets.map((p, i) => (i === index ? replacement : p));
          await expect(checkAgainst(path, edited)).rejects.toThrow(
            new RegExp(
              `^the input changed since the journaled run: record ${index + 1} differs; nothing was sent$`,
            ),
          );
          await expect(checkAgainst(path, pets)).resolves.toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses records added or removed anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pet, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.boolean(),
        pet,
        async (pets, at, add, extra) => {
          const path = await journalOf(pets, []);
          const edited = [...pets];
          if (add) edited.splice(at % (pets.length + 1), 0, extra);
          else edited.splice(at % pets.length, 1);
          fc.pre(edited.length > 0);
          await expect(checkAgainst(path, edited)).rejects.toThrow(
            `it holds ${edited.length} record${edited.length === 1 ? '' : 's'}, the run read ${pets.length}`,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('plans the same input: the unsent with their batch keys, the unknown with theirs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pet, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        async (pets, sentCount) => {
          const sent = Array.from({ length: sentCount % (pets.length + 1) }, (_, i) => i);
          const path = await journalOf(pets, sent);
          const send = await planned(pets, 'b1', path, true);
          expect(send).toHaveLength(pets.length);
          for (const { index, key, resendsUnknown } of send) {
            expect(key).toBe(recordKey('b1', 'pets.ndjson', index + 1));
            expect(resendsUnknown).toBe(sent.includes(index));
          }
          // Without --retry-unknown, the unknown ones are left.
          expect(await planned(pets, 'b1', path)).toHaveLength(pets.length - sent.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('keys', () => {
  it('identical records of one batch have keys of their own; another batch, others', async () => {
    await fc.assert(
      fc.asyncProperty(pet, fc.integer({ min: 2, max: 20 }), async (one, count) => {
        const pets = Array.from({ length: count }, () => one);
        const keysOf = async (batch: string) => (await planned(pets, batch)).map((r) => r.key);
        const first = await keysOf('b1');
        expect(new Set(first).size).toBe(count);
        expect(await keysOf('b1')).toEqual(first);
        expect((await keysOf('b2')).filter((key) => first.includes(key))).toEqual([]);
      }),
    );
  });
});

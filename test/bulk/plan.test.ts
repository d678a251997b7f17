import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordKey } from '../../src/bulk/batch.js';
import type { JournalContents } from '../../src/bulk/record-states.js';
import type { RecordState } from '../../src/bulk/record-states.js';
import { planRun, type PlanInput } from '../../src/bulk/plan.js';
import { digestInput, parsePetsFile } from '../../src/bulk/records.js';

const pet = fc.record({
  name: fc.string({ minLength: 1, maxLength: 8 }).filter((name) => name.trim() !== ''),
  categoryId: fc.integer({ min: 1, max: 3 }),
});

function inputOf(pets: { name: string; categoryId: number }[], batch = 'b1'): PlanInput {
  const records = parsePetsFile(pets.map((p) => JSON.stringify(p)).join('\n'), 'input');
  return {
    records,
    digests: digestInput(records),
    recordKey: (record, attempt) => recordKey(batch, 'pets.ndjson', record, attempt),
    namedBatch: false,
  };
}

/** The journal a run of `input` leaves after sending the records at `sent` (0-based). */
function journalOf(input: PlanInput, sent: number[]): JournalContents {
  const states = new Map<number, RecordState>();
  for (const index of sent) {
    states.set(index + 1, {
      outcome: 'unknown',
      digest: input.digests.records[index]!,
      key: input.recordKey(index + 1),
      attempt: 1,
      keySent: { at: Date.now(), byService: undefined },
    });
  }
  return {
    input: '/in/pets.ndjson',
    started: '2026-11-25T00:00:00.000Z',
    records: input.records.count,
    target: 't',
    batch: 'b1',
    digest: input.digests.whole,
    digests: input.digests.compact,
    states,
    unknownSinceQueued: { noBoot: [], otherBoot: [] },
  };
}

const noRetry = { retryFailed: false, retryUnknown: false };

describe('a resume refuses any change to its input', () => {
  it('names the first record changed, whether the first run sent it or not', () => {
    fc.assert(
      fc.property(
        fc.array(pet, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        pet,
        (pets, sentCount, at, replacement) => {
          const original = inputOf(pets);
          const sent = Array.from({ length: sentCount % (pets.length + 1) }, (_, i) => i);
          const journal = journalOf(original, sent);
          const index = at % pets.length;
          fc.pre(JSON.stringify(pets[index]) !== JSON.stringify(replacement));
          const edited = pets.map((p, i) => (i === index ? replacement : p));
          expect(() => planRun(inputOf(edited), journal, noRetry)).toThrow(
            new RegExp(
              `^the input changed since the journaled run: record ${index + 1} differs; nothing was sent$`,
            ),
          );
        },
      ),
    );
  });

  it('refuses records added or removed anywhere', () => {
    fc.assert(
      fc.property(
        fc.array(pet, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.boolean(),
        pet,
        (pets, at, add, extra) => {
          const journal = journalOf(inputOf(pets), []);
          const edited = [...pets];
          if (add) edited.splice(at % (pets.length + 1), 0, extra);
          else edited.splice(at % pets.length, 1);
          fc.pre(edited.length > 0);
          expect(() => planRun(inputOf(edited), journal, noRetry)).toThrow(
            `it holds ${edited.length} record${edited.length === 1 ? '' : 's'}, the run read ${pets.length}`,
          );
        },
      ),
    );
  });

  it('plans the same input: the unsent with their batch keys, the unknown with theirs', () => {
    fc.assert(
      fc.property(fc.array(pet, { minLength: 1, maxLength: 30 }), fc.nat(), (pets, sentCount) => {
        const input = inputOf(pets);
        const sent = Array.from({ length: sentCount % (pets.length + 1) }, (_, i) => i);
        const plan = planRun(input, journalOf(input, sent), { ...noRetry, retryUnknown: true });
        expect(plan.send.length).toBe(pets.length);
        for (let position = 0; position < plan.send.length; position++) {
          const { index, key } = plan.send.record(position);
          expect(key).toBe(recordKey('b1', 'pets.ndjson', index + 1));
        }
      }),
    );
  });
});

describe('keys', () => {
  it('identical records of one batch have keys of their own; another batch, others', () => {
    fc.assert(
      fc.property(pet, fc.integer({ min: 2, max: 20 }), (one, count) => {
        const pets = Array.from({ length: count }, () => one);
        const keysOf = (batch: string) => {
          const { send } = planRun(inputOf(pets, batch), undefined, noRetry);
          return Array.from({ length: send.length }, (_, i) => send.record(i).key);
        };
        const first = keysOf('b1');
        expect(new Set(first).size).toBe(count);
        expect(keysOf('b1')).toEqual(first);
        expect(keysOf('b2').filter((key) => first.includes(key))).toEqual([]);
      }),
    );
  });
});

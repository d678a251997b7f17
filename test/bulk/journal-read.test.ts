import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/bulk/journal-read.js';
import { UsageError } from '../../src/core/errors.js';

const header = {
  type: 'run',
  version: 1,
  input: '/in/pets.ndjson',
  records: 3,
  target: 't',
  at: '2026-11-24T00:00:00.000Z',
  batch: 'b1',
};
const good = [
  header,
  { type: 'sending', record: 1, digest: 'd1', key: 'k1' },
  { type: 'created', record: 1, pet: { id: 7, name: 'A', categoryId: 1 } },
  { type: 'printed', record: 1 },
  { type: 'sending', record: 2, digest: 'd2', key: 'k2' },
  { type: 'failed', record: 2, error: { code: 'bad', message: 'no', status: 400 } },
].map((entry) => JSON.stringify(entry));

function journalFile(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-jr-')), 'run.journal');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Lines shaped like entries, with any field missing, of the wrong type, or out of range. */
const entryLike = fc.record(
  {
    type: fc.constantFrom(
      'run',
      'resume',
      'sending',
      'created',
      'printed',
      'withdrawn',
      'failed',
      'unknown',
      'x',
    ),
    version: fc.oneof(fc.constant(1), fc.jsonValue()),
    record: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double(), fc.jsonValue()),
    digest: fc.oneof(fc.string(), fc.jsonValue()),
    key: fc.oneof(fc.string(), fc.jsonValue()),
    pet: fc.oneof(fc.record({ id: fc.integer() }), fc.jsonValue()),
    error: fc.oneof(
      fc.record({ code: fc.string(), message: fc.string(), status: fc.integer() }),
      fc.jsonValue(),
    ),
    records: fc.oneof(fc.constant(3), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('readJournal', () => {
  it('reads a well-formed journal', async () => {
    const journal = await readJournal(journalFile(good));
    expect([...journal.states].map(([record, state]) => [record, state.outcome])).toEqual([
      [1, 'created'],
      [2, 'failed'],
    ]);
    expect(journal.batch).toBe('b1');
  });

  it('any line that is not a well-formed entry is "damaged at line N", never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue(), entryLike),
        fc.integer({ min: 1, max: good.length - 1 }),
        async (value, at) => {
          const lines = [...good];
          lines.splice(at, 0, JSON.stringify(value));
          const path = journalFile(lines);
          try {
            await readJournal(path);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            // The line itself, or a later one it made inconsistent (a record sent again).
            const line = /^the journal .* is damaged at line (\d+): /.exec(
              (error as Error).message,
            );
            expect(line, (error as Error).message).not.toBeNull();
            expect(Number(line![1])).toBeGreaterThanOrEqual(at + 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line torn by a crash is ignored where a crash leaves one, and damage elsewhere is not', async () => {
    const torn = good.at(-1)!.slice(0, 15);
    const raw = (text: string) => {
      const path = join(mkdtempSync(join(tmpdir(), 'petstore-jr-')), 'run.journal');
      writeFileSync(path, text);
      return path;
    };
    // At the very end, with no line break after it: what a kill in the middle of a write leaves.
    await expect(readJournal(raw(`${good.join('\n')}\n${torn}`))).resolves.toBeDefined();
    // Ended by a line break: no crash leaves that, every entry is written with its break.
    const ended = raw(`${good.join('\n')}\n${torn}\n`);
    await expect(readJournal(ended)).rejects.toThrow(`the journal ${ended} is damaged at line 7`);
    // Before a resume header that says it ended a torn line: accepted; before one that does not: not.
    const resume = (afterTornLine: boolean) =>
      JSON.stringify({ ...header, type: 'resume', ...(afterTornLine && { afterTornLine }) });
    await expect(
      readJournal(raw(`${[...good, torn, resume(true)].join('\n')}\n`)),
    ).resolves.toBeDefined();
    const unmarked = raw(`${[...good, torn, resume(false)].join('\n')}\n`);
    await expect(readJournal(unmarked)).rejects.toThrow('is damaged at line 7: not JSON');
    const middle = journalFile([...good.slice(0, 3), torn, ...good.slice(3)]);
    await expect(readJournal(middle)).rejects.toThrow(
      `the journal ${middle} is damaged at line 4: not JSON`,
    );
  });

  it('a line that is no start of an entry is damage, even last; a power loss’s zeros are not', async () => {
    const raw = (text: string) => {
      const path = join(mkdtempSync(join(tmpdir(), 'petstore-jr-')), 'run.journal');
      writeFileSync(path, text);
      return path;
    };
    for (const tail of ['hello', ' {"type"', '[1,', 'x{"type":"sending"']) {
      const path = raw(`${good.join('\n')}\n${tail}`);
      await expect(readJournal(path), tail).rejects.toThrow('is damaged at line 7: not JSON');
    }
    for (const tail of ['{', '{"ty', '{"type":"created","record":1,"pet"', '\0\0\0\0']) {
      await expect(readJournal(raw(`${good.join('\n')}\n${tail}`)), tail).resolves.toBeDefined();
    }
  });

  it('what petstore never writes is damage: an outcome twice, a send after creation, a second run, an empty line', async () => {
    const cases: [string, string[], string][] = [
      [
        'created twice',
        [
          ...good,
          JSON.stringify({
            type: 'created',
            record: 1,
            pet: { id: 777, name: 'X', categoryId: 1 },
          }),
        ],
        'line 7: record 1 created twice',
      ],
      [
        'sent after created',
        [...good, JSON.stringify({ type: 'sending', record: 1 })],
        'line 7: record 1 sent again after it was created',
      ],
      ['a second run header', [...good, JSON.stringify(header)], 'line 7: a second run header'],
      ['an empty line', [...good.slice(0, 3), '', ...good.slice(3)], 'line 4: an empty line'],
    ];
    for (const [what, lines, message] of cases) {
      await expect(readJournal(journalFile(lines)), what).rejects.toThrow(message);
    }
    const resumeFirst = journalFile([
      JSON.stringify({ ...header, type: 'resume' }),
      ...good.slice(1),
    ]);
    await expect(readJournal(resumeFirst)).rejects.toThrow('is not a petstore journal');
  });

  it('a record queued and never sent was not sent, within the boot it was queued in', async () => {
    const lines = [
      JSON.stringify({ ...header, boot: 'boot-1' }),
      JSON.stringify({ type: 'queued', record: 1, digest: 'd1', key: 'k1' }),
      JSON.stringify({ type: 'queued', record: 2, digest: 'd2', key: 'k2' }),
      JSON.stringify({ type: 'sending', record: 1 }),
    ];
    const path = journalFile(lines);
    const same = await readJournal(path, 'boot-1');
    expect([...same.states].map(([record, state]) => [record, state.outcome])).toEqual([
      [1, 'unknown'],
    ]);
    // After a reboot (a power loss), a sending line not yet synced may be lost: unknown.
    const rebooted = await readJournal(path, 'boot-2');
    expect([...rebooted.states].map(([record, state]) => [record, state.outcome])).toEqual([
      [1, 'unknown'],
      [2, 'unknown'],
    ]);
    expect(rebooted.states.get(2)).toMatchObject({ key: 'k2', digest: 'd2' });
    // Each such record is counted, with why: a new boot, or a boot that cannot be told.
    expect(same.unknownSinceQueued).toEqual({ noBoot: 0, otherBoot: 0 });
    expect(rebooted.unknownSinceQueued).toEqual({ noBoot: 0, otherBoot: 1 });
    const noBoot = await readJournal(path, undefined);
    expect(noBoot.unknownSinceQueued).toEqual({ noBoot: 1, otherBoot: 0 });
  });
});

describe('each record’s attempt', () => {
  const failedOnce = [
    header,
    { type: 'queued', record: 2, digest: 'd2', key: 'k2a' },
    { type: 'sending', record: 2 },
    { type: 'failed', record: 2, error: { code: 'bad', message: 'no', status: 400 } },
  ];

  it('is one more for each new key the record was sent with, the same for a key sent again', async () => {
    const lines = [
      ...failedOnce,
      {
        type: 'resume',
        version: 1,
        input: '/in/pets.ndjson',
        records: 3,
        target: 't',
        at: header.at,
        batch: 'b1',
      },
      { type: 'queued', record: 2, digest: 'd2', key: 'k2b' },
      { type: 'sending', record: 2 },
      { type: 'unknown', record: 2, error: { code: 'timeout', message: 'no answer', status: 0 } },
      { type: 'queued', record: 2, digest: 'd2', key: 'k2b' },
      { type: 'sending', record: 2 },
      { type: 'failed', record: 2, error: { code: 'bad', message: 'no', status: 400 } },
    ].map((entry) => JSON.stringify(entry));
    const contents = await readJournal(journalFile(lines));
    expect(contents.states.get(2)).toMatchObject({ outcome: 'failed', key: 'k2b', attempt: 2 });
  });

  it('a retry queued but never sent, or withdrawn, leaves the record as it was: failed, with its key', async () => {
    const retry = { type: 'queued', record: 2, digest: 'd2', key: 'k2b' };
    const boot = 'boot-1';
    for (const tail of [
      [retry],
      [retry, { type: 'withdrawn', record: 2 }],
      [retry, { type: 'sending', record: 2 }, { type: 'withdrawn', record: 2 }],
    ]) {
      const lines = [{ ...failedOnce[0], boot }, ...failedOnce.slice(1), ...tail].map((entry) =>
        JSON.stringify(entry),
      );
      const contents = await readJournal(journalFile(lines), boot);
      expect(contents.states.get(2), JSON.stringify(tail)).toMatchObject({
        outcome: 'failed',
        key: 'k2a',
        attempt: 1,
      });
    }
  });
});

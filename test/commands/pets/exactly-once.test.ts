import { editJournal } from '../../helpers/journal-file.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { journalOnStderr } from '../../helpers/journal-line.js';

/**
 * Exactly once, through the whole command against the sandbox service (in this process, over
 * real HTTP): a distinct record is never dropped, a created one never made twice.
 */

async function sandbox() {
  const { env, pets } = await sandboxService();
  return { env, pets };
}

const MAX = '{"name":"Max","categoryId":1}\n';

/** The JSON summary a bulk run writes last on stderr when its errors are JSON. */
function summaryOf(stderr: string): Record<string, unknown> {
  const line = stderr
    .trimEnd()
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('{"summary":'));
  expect(line, stderr).toBeDefined();
  return (JSON.parse(line!) as { summary: Record<string, unknown> }).summary;
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-once-'));
}

function journalNamed(stderr: string): string {
  const path = journalOnStderr(stderr);
  expect(path, stderr).toBeDefined();
  return path!;
}

describe('distinct pets never collapse into one', () => {
  it('two runs reading stdin, with the same record: the second is refused, or creates it with --again', async () => {
    const { env, pets } = await sandbox();
    const first = fakeIO({ stdin: MAX });
    expect(await main(['pets', 'import', '-'], first, env)).toBe(0);
    const second = fakeIO({ stdin: MAX });
    expect(await main(['pets', 'import', '-'], second, env)).toBe(2);
    expect(second.err()).toContain('standard input was imported in full before: batch');
    const again = fakeIO({ stdin: MAX });
    expect(await main(['pets', 'import', '-', '--again'], again, env)).toBe(0);
    expect((await pets()).map((pet) => pet.name)).toEqual(['Max', 'Max']);
    expect(again.err()).not.toContain('answered from');
  });

  it('two files of the same name in different folders, with the same records, create all with --again', async () => {
    const { env, pets } = await sandbox();
    for (let run = 0; run < 2; run++) {
      const file = join(folder(), 'pets.ndjson');
      writeFileSync(file, MAX + MAX);
      const args = ['pets', 'import', file, ...(run === 0 ? [] : ['--again'])];
      expect(await main(args, fakeIO(), env)).toBe(0);
    }
    expect(await pets()).toHaveLength(4);
  });

  it('the same file run again without --resume is refused; --again makes it a new batch', async () => {
    const { env, pets } = await sandbox();
    const file = join(folder(), 'pets.ndjson');
    writeFileSync(file, MAX);
    expect(await main(['pets', 'import', file], fakeIO(), env)).toBe(0);
    expect(await main(['pets', 'import', file], fakeIO(), env)).toBe(2);
    expect(await pets()).toHaveLength(1);
    expect(await main(['pets', 'import', file, '--again'], fakeIO(), env)).toBe(0);
    expect(await pets()).toHaveLength(2);
  });
});

describe('a named batch (--batch-id) makes a re-run safe', () => {
  it('the same batch and input send the same keys: nothing is created twice', async () => {
    const { env, pets } = await sandbox();
    const file = join(folder(), 'pets.ndjson');
    writeFileSync(file, MAX + MAX + '{"name":"Bella","categoryId":2}\n');
    const args = ['pets', 'import', file, '--batch-id', 'ci-build-41'];
    const first = fakeIO();
    expect(await main(args, first, env)).toBe(0);
    const again = fakeIO();
    expect(await main(args, again, env)).toBe(0);
    expect(await pets()).toHaveLength(3);
    // The same pets, printed again, and the summary says none was created now.
    expect(again.out()).toBe(first.out());
    expect(summaryOf(again.err())).toMatchObject({ createdNow: 0, replayed: 3, records: 3 });
    expect(summaryOf(first.err())).toMatchObject({ createdNow: 3, replayed: 0 });
    // On a terminal (a table at the end), the summary is a sentence.
    const table = fakeIO({ tty: true });
    expect(await main([...args, '--no-color'], table, env)).toBe(0);
    expect(table.err()).toContain(
      `3 records to ${env.PETSTORE_BASE_URL}: created 0 now, 3 answered from an earlier request (not created again).`,
    );
  });

  it('PETSTORE_BATCH_ID names the batch as --batch-id does, wherever the input is checked out', async () => {
    const { env, pets } = await sandbox();
    const named = { ...env, PETSTORE_BATCH_ID: 'nightly-2026-11-24' };
    for (let run = 0; run < 2; run++) {
      const file = join(folder(), 'pets.ndjson');
      writeFileSync(file, MAX + MAX);
      expect(await main(['pets', 'import', file], fakeIO(), named)).toBe(0);
    }
    expect(await pets()).toHaveLength(2);
    // Another input of the batch (stdin) has keys of its own.
    expect(await main(['pets', 'import', '-'], fakeIO({ stdin: MAX }), named)).toBe(0);
    expect(await pets()).toHaveLength(3);
  });

  it('a record changed under a reused batch is refused, nothing sent, with a hint naming --batch-id', async () => {
    const { env, pets } = await sandbox();
    const file = join(folder(), 'pets.ndjson');
    writeFileSync(file, MAX);
    const args = ['pets', 'import', file, '--batch-id', 'b-7'];
    expect(await main(args, fakeIO(), env)).toBe(0);
    writeFileSync(file, '{"name":"Maximilian","categoryId":1}\n');
    const io = fakeIO({ tty: true });
    // Refused before anything is sent: the batch's journal says what its key carried.
    expect(await main([...args, '--no-color'], io, env)).toBe(2);
    expect(io.err()).toContain('record 1 is not the record batch b-7 sent with its key before');
    expect(io.err()).toMatch(/^hint: .*another --batch-id/m);
    expect((await pets()).map((pet) => pet.name)).toEqual(['Max']);
  });
});

describe('a resume counts what it created itself as created now', () => {
  it('its own sends answered again after a lost answer are not "from an earlier request"', async () => {
    const faults = { dropAfterSend: 0, seed: 7 };
    const { env, names } = await sandboxService(faults);
    const file = join(folder(), 'pets.ndjson');
    const all = Array.from({ length: 20 }, (_, i) => `pet ${i}`);
    writeFileSync(file, all.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
    const first = fakeIO();
    let printed = 0;
    const write = first.stdout.write.bind(first.stdout);
    first.stdout.write = (text: string) => {
      if (printed++ === 0) setImmediate(() => first.signal('SIGINT'));
      return write(text);
    };
    const args = ['pets', 'import', file, '--concurrency', '1', '-o', 'ndjson'];
    expect(await main(args, first, env)).toBe(130);
    const earlier = summaryOf(first.err());
    expect(earlier.unknown).toBe(0);
    // Half of the resume's writes now take effect and lose their answer: each is sent again
    // with its key and answered from that first send, which this run made.
    faults.dropAfterSend = 0.5;
    const resume = fakeIO();
    const path = journalNamed(first.err());
    const resumeArgs = ['pets', 'import', '--resume', path, '--retry-unknown', '--retries', '8'];
    expect(await main([...resumeArgs, '-o', 'ndjson'], resume, env)).toBe(0);
    const summary = summaryOf(resume.err());
    expect(summary.replayed).toBe(0);
    expect(summary.createdNow).toBe(20 - Number(earlier.createdNow));
    expect((await names()).sort()).toEqual([...all].sort());
  });
});

describe('--resume refuses an input changed anywhere', () => {
  it('a record the first run never reached, edited after it stopped, is not sent', async () => {
    const { env, pets } = await sandbox();
    const file = join(folder(), 'pets.ndjson');
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    writeFileSync(file, names.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
    const first = fakeIO();
    // Interrupted after the first pet is created: the rest are never reached.
    let created = 0;
    const write = first.stdout.write.bind(first.stdout);
    first.stdout.write = (text: string) => {
      if (created++ === 0) setImmediate(() => first.signal('SIGINT'));
      return write(text);
    };
    const code = await main(['pets', 'import', file, '--concurrency', '1'], first, env);
    expect(code).toBe(130);
    const journal = journalNamed(first.err());
    const sentBefore = (await pets()).length;
    expect(sentBefore).toBeLessThan(names.length);
    const edited = names.map((name) => (name === 'H' ? 'Hacked' : name));
    writeFileSync(file, edited.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', journal, '--no-color'], io, env)).toBe(2);
    expect(io.err()).toContain('record 8 differs');
    expect(io.err()).toContain('nothing was sent');
    expect(await pets()).toHaveLength(sentBefore);
  });
});

describe('a damaged journal is exit 2 saying what is wrong, never a crash', () => {
  const damage: [string, string, RegExp][] = [
    [
      'a record number below 1',
      'UPDATE records SET record = 0 WHERE record = 1',
      /record 0, past the 2 of the input/,
    ],
    [
      'a record past the input',
      'UPDATE records SET record = 99 WHERE record = 1',
      /record 99, past the 2/,
    ],
    [
      'a fractional attempt',
      'UPDATE records SET attempt = 1.5 WHERE record = 1',
      /attempt is not a whole number/,
    ],
    ['an empty key', "UPDATE records SET key = '' WHERE record = 1", /without its digest or key/],
    [
      'a created pet that is not one',
      `UPDATE records SET pet = '"Rex"' WHERE record = 1`,
      /without its pet/,
    ],
    ['a pet that is no JSON', "UPDATE records SET pet = '{' WHERE record = 1", /is damaged/],
    [
      'an error without its fields',
      "UPDATE records SET outcome = 'failed', error = '{}' WHERE record = 1",
      /without its code, message or status/,
    ],
    ['a table gone', 'DROP TABLE records', /is damaged: no such table/],
    [
      'another format',
      'UPDATE journal SET format = 3',
      /is not a petstore journal of this version/,
    ],
  ];

  it.each(damage)('%s', async (_what, sql, said) => {
    const { env } = await sandbox();
    const file = join(folder(), 'pets.ndjson');
    writeFileSync(file, MAX + MAX);
    const first = fakeIO();
    expect(await main(['pets', 'import', file], first, env)).toBe(0);
    const journal = journalNamed(first.err());
    editJournal(journal, sql);
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', journal, '--no-color'], io, env)).toBe(2);
    expect(io.err()).toContain(`${journal} is`);
    expect(io.err()).toMatch(said);
  });
});

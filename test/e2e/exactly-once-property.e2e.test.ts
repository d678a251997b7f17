import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startSandboxServer } from '../../src/sandbox/server.js';
import { BIN, freshHome } from '../helpers/run-cli.js';

/**
 * Exactly once, as a property: whatever happens to a bulk add (kill -9 at any moment, responses
 * lost after the service acted, a stdout that fills up part way through a line, resumes started
 * together over a lock a killed run left), once resumed to the end:
 * - every input record is one pet (identical records are as many pets), none is made twice;
 * - every created pet is on the runs' stdouts, together, once.
 * The one exception the design allows is named where it is checked.
 */

const KEY = 'sk_property_e2e';
const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;
/** RLIMIT_FSIZE for a stdout that may grow by a few hundred bytes only (see `run`). */
const FILE_LIMIT = 64 * 1024 * 1024;

interface Step {
  /** SIGKILL this long after the start; undefined: let it end. */
  killAfterMs: number | undefined;
  /** How many bytes stdout takes before the disk is full; undefined: all. */
  stdoutRoom: number | undefined;
}

interface Ran {
  code: number | null;
  killed: boolean;
  /** The complete lines it wrote to stdout (a torn last line is no record of anything). */
  lines: string[];
}

async function run(args: string[], env: Record<string, string>, step: Step): Promise<Ran> {
  const out = join(mkdtempSync(join(tmpdir(), 'petstore-prop-')), 'out');
  writeFileSync(out, '');
  // RLIMIT_FSIZE counts the offset: stdout starts near the limit, the journal at 0.
  const room = hasPrlimit ? step.stdoutRoom : undefined;
  if (room !== undefined) truncateSync(out, FILE_LIMIT - room);
  const fd = openSync(out, 'a');
  const command =
    room === undefined
      ? [process.execPath, BIN, ...args]
      : ['prlimit', `--fsize=${FILE_LIMIT}`, process.execPath, BIN, ...args];
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', fd, 'ignore'] });
  closeSync(fd);
  const signalled = { killed: false };
  const killer =
    step.killAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          signalled.killed = child.kill('SIGKILL');
        }, step.killAfterMs);
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(killer);
  clearTimeout(guard);
  const bytes = readFileSync(out);
  const text = bytes.subarray(room === undefined ? 0 : FILE_LIMIT - room).toString('utf8');
  return { code, killed: signalled.killed && code === null, lines: text.split('\n').slice(0, -1) };
}

const record = fc.record({
  // One name CSV must quote: a comma, quotes and a line break.
  name: fc.constantFrom('Max', 'Bella', 'Luna', 'Ró, "the\nfast"'),
  categoryId: fc.integer({ min: 1, max: 2 }),
});

const step = fc.record({
  killAfterMs: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined, freq: 2 }),
  stdoutRoom: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined, freq: 3 }),
});

const scenario = fc.record({
  records: fc.array(record, { minLength: 1, maxLength: 40 }),
  dropAfterSend: fc.constantFrom(0, 0.1, 0.3),
  concurrency: fc.integer({ min: 1, max: 8 }),
  first: step,
  /** Resumes, each of 1 to 3 runs started together. */
  resumes: fc.array(
    fc.record({ together: fc.integer({ min: 1, max: 3 }), step, retryUnknown: fc.boolean() }),
    { maxLength: 3 },
  ),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
type Input = Scenario['records'];

const ndjsonOf = (records: Input) => records.map((r) => JSON.stringify(r) + '\n').join('');
const csvField = (text: string) =>
  /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
const csvOf = (records: Input) =>
  'name,categoryId\r\n' + records.map((r) => `${csvField(r.name)},${r.categoryId}\r\n`).join('');

async function allPets(
  baseUrl: string,
): Promise<{ id: number; name: string; categoryId: number }[]> {
  const pets: { id: number; name: string; categoryId: number }[] = [];
  let url: string | undefined = `${baseUrl}/pets?limit=100`;
  for (let page = 0; url !== undefined && page < 100; page++) {
    const response: Response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
    pets.push(...((await response.json()) as typeof pets));
    url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return pets;
}

const contentOf = (pet: { name: string; categoryId: number }) => `${pet.name}/${pet.categoryId}`;

function tally(items: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** The input as NDJSON, or as CSV (a header row, RFC 4180 quoting). */
type Format = 'ndjson' | 'csv';

async function check(format: Format, s: Scenario): Promise<void> {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
    faults: { dropAfterSend: s.dropAfterSend, seed: s.seed },
  });
  try {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-prop-in-'));
    const input = join(folder, `pets.${format}`);
    writeFileSync(input, format === 'csv' ? csvOf(s.records) : ndjsonOf(s.records));
    const journal = join(folder, 'run.journal');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: freshHome(),
      PETSTORE_BASE_URL: sandbox.apiBaseUrl,
      PETSTORE_API_KEY: KEY,
    };
    const runs: Ran[] = [];
    const first = ['pets', 'import', input, '--journal', journal, '--json'];
    runs.push(await run([...first, '--concurrency', String(s.concurrency)], env, s.first));
    // Killed before its journal was made: nothing was sent, and a new run starts over.
    if (!existsSync(journal))
      runs.push(await run(first, env, { killAfterMs: undefined, stdoutRoom: undefined }));
    for (const resume of s.resumes) {
      const args = ['pets', 'import', '--resume', journal, '--json'];
      if (resume.retryUnknown) args.push('--retry-unknown');
      runs.push(
        ...(await Promise.all(
          Array.from({ length: resume.together }, () => run(args, env, resume.step)),
        )),
      );
    }
    // Then resumed to the end: every unknown sent again with its key until each is known.
    const finish = [
      'pets',
      'import',
      '--resume',
      journal,
      '--retry-unknown',
      '--retries',
      '5',
      '--json',
    ];
    let last: Ran | undefined;
    for (let attempt = 0; attempt < 10 && last?.code !== 0; attempt++) {
      last = await run(finish, env, { killAfterMs: undefined, stdoutRoom: undefined });
      runs.push(last);
    }
    expect(last?.code, 'the run completes').toBe(0);

    const pets = await allPets(sandbox.apiBaseUrl);
    // Every record is one pet: as many of each content as the input holds.
    expect(tally(pets.map(contentOf))).toEqual(tally(s.records.map(contentOf)));
    // Every created pet is printed once across all stdouts...
    const printed = runs.flatMap((ran) =>
      ran.lines.map((line) => (JSON.parse(line) as { id: number }).id),
    );
    expect(new Set(printed)).toEqual(new Set(pets.map((pet) => pet.id)));
    // ...but for the one gap the design leaves: a run killed between writing a batch of lines
    // to stdout and journaling them printed prints them again on resume. Such lines are the
    // last ones the killed run wrote.
    const twice = [...tally(printed.map(String))]
      .filter(([, count]) => count > 1)
      .map(([id]) => id);
    for (const id of twice) {
      const explained = runs.some((ran) => {
        if (!ran.killed) return false;
        const ids = ran.lines.map((line) => String((JSON.parse(line) as { id: number }).id));
        const at = ids.indexOf(id);
        return at !== -1 && ids.slice(at).every((later) => twice.includes(later));
      });
      expect(
        explained,
        `pet ${id} printed twice, not by a run killed right after printing it`,
      ).toBe(true);
    }
  } finally {
    await sandbox.close();
  }
}

describe.each(['ndjson', 'csv'] as const)(
  'pets import (%s), exactly once under every fault',
  (format) => {
    it('creates each record once and prints each pet once, whatever happens', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, (s) => check(format, s)),
        { numRuns: 10, endOnFailure: true },
      );
    }, 300_000);
  },
);

import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/run-cli.js';
import { startIdempotentService } from '../helpers/idempotent-service.js';
import { editJournal } from '../helpers/journal-file.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { journalOnStderr } from '../helpers/journal-line.js';

/**
 * Exactly once under faults only a real process shows: a stdout that takes part of a line and
 * then fails, and resumes started together over a lock its killed owner left.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/**
 * A service that honours Idempotency-Key and creates every pet, except that while `refusing`
 * is set it rejects names starting "bad" (a rejection stores nothing, as at Stripe).
 */
async function service() {
  const state = { refusing: true };
  const { server, created } = await startIdempotentService({ refusesBad: () => state.refusing });
  servers.push(server);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'k_exactly_once',
  };
  return { env, created, state };
}

function inputOf(names: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-once-e2e-')), 'pets.ndjson');
  writeFileSync(file, names.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
  return file;
}

interface Ran {
  code: number | null;
  stderr: string;
}

/** Runs petstore with stdout on `stdoutFd` (a pipe's contents are then not kept). */
function run(
  args: string[],
  env: Record<string, string>,
  options: { stdoutFd?: number; prefix?: string[] } = {},
): Promise<Ran & { stdout: string }> {
  const command = [...(options.prefix ?? []), process.execPath, BIN, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    env,
    stdio: ['ignore', options.stdoutFd ?? 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function journalNamed(stderr: string): string {
  const path = journalOnStderr(stderr);
  expect(path, stderr).toBeDefined();
  return path!;
}

/** The complete JSON lines of an output (a torn last line is no record of anything). */
function completeLines(output: string): { id: number; name: string }[] {
  return output
    .split('\n')
    .slice(0, -1)
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number; name: string });
}

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;

describe('a stdout that fails part way through a line', () => {
  it.runIf(hasPrlimit)('loses no record: the torn one is printed by the resume', async () => {
    const { env } = await service();
    const names = Array.from({ length: 30 }, (_, i) => `pet-${String(i).padStart(2, '0')}`);
    const file = inputOf(names);
    // stdout is a file that may grow by 700 bytes only (RLIMIT_FSIZE counts the offset, so it
    // starts near the limit); the journal, a file of its own, may grow to the full limit.
    const limit = 16 * 1024 * 1024;
    const room = 700;
    const out = join(mkdtempSync(join(tmpdir(), 'petstore-torn-')), 'out');
    writeFileSync(out, '');
    truncateSync(out, limit - room);
    const fd = openSync(out, 'a');
    const first = await run(['pets', 'import', file, '--concurrency', '2'], env, {
      stdoutFd: fd,
      prefix: ['prlimit', `--fsize=${limit}`],
    });
    closeSync(fd);
    expect(first.code, first.stderr).toBe(2);
    const printed = readFileSync(out)
      .subarray(limit - room)
      .toString('utf8');
    expect(printed.endsWith('\n'), 'the first run tore a line').toBe(false);
    const resumed = await run(['pets', 'import', '--resume', journalNamed(first.stderr)], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const all = [...completeLines(printed), ...completeLines(resumed.stdout)];
    expect(all.map((pet) => pet.name).sort()).toEqual(names);
  });
});

/** A run killed with kill -9 while it holds the journal: its lock, and what it had written. */
async function killedWhileHolding(journal: string): Promise<void> {
  const holder = spawn(
    process.execPath,
    [
      '--no-warnings',
      '-e',
      `const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(process.argv[1], { timeout: 0 });
      db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
      process.stdout.write('held\\n');
      setTimeout(() => process.exit(0), 60_000);`,
      journal,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  const gone = new Promise((resolve) => holder.once('exit', resolve));
  holder.kill('SIGKILL');
  await gone;
}

describe('resumes started together over a lock its killed owner left', () => {
  it('exactly one of them runs: failed records are created once', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const { env, created, state } = await service();
      const file = inputOf(['A', 'bad1', 'bad2', 'B']);
      const first = await run(['pets', 'import', file], env);
      expect(first.code, first.stderr).toBe(5);
      const journal = journalNamed(first.stderr);
      // As kill -9 leaves it: a run that held the journal's lock is killed while it holds it.
      await killedWhileHolding(journal);
      state.refusing = false;
      const resumes = await Promise.all(
        Array.from({ length: 8 }, () =>
          run(['pets', 'import', '--resume', journal, '--retry-failed'], env),
        ),
      );
      const stderr = resumes.map((resumed) => resumed.stderr).join('\n');
      // Each found the journal busy (2), or held it alone (0): one that started after the
      // first had finished found nothing left to send.
      expect(
        resumes.every((resumed) => resumed.code === 0 || resumed.code === 2),
        stderr,
      ).toBe(true);
      expect(created.sort(), stderr).toEqual(['A', 'B', 'bad1', 'bad2']);
      for (const busy of resumes.filter((resumed) => resumed.code === 2)) {
        expect(busy.stderr).toContain('is in use by another petstore run');
      }
    }
    // 5 trials of 10 processes each, 8 at once: about 20 s on 2 cores, more on a busy one.
  }, 120_000);
});

describe('a copy of a journal', () => {
  it('resumed after the original, repeats no retry: each retried record is created once', async () => {
    for (const failures of [1, 2]) {
      const { env, created, state } = await service();
      const file = inputOf(['A', 'bad1', 'bad2', 'B']);
      const first = await run(['pets', 'import', file], env);
      expect(first.code, first.stderr).toBe(5);
      const journal = journalNamed(first.stderr);
      // Retries that fail too: the copy is made after the last of them.
      for (let retry = 1; retry < failures; retry++) {
        const failed = await run(['pets', 'import', '--resume', journal, '--retry-failed'], env);
        expect(failed.code, failed.stderr).toBe(5);
      }
      const copy = `${journal}.copy`;
      copyFileSync(journal, copy);
      state.refusing = false;
      const original = await run(['pets', 'import', '--resume', journal, '--retry-failed'], env);
      expect(original.code, original.stderr).toBe(0);
      const again = await run(['pets', 'import', '--resume', copy, '--retry-failed'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(created.sort(), again.stderr).toEqual(['A', 'B', 'bad1', 'bad2']);
      // The copy's run got the service's earlier answers: the same pets, said as such.
      const pets = (output: string) => completeLines(output).map((pet) => `${pet.id} ${pet.name}`);
      expect(pets(again.stdout).sort()).toEqual(pets(original.stdout).sort());
      expect(again.stderr).toMatch(/"replayed":2/);
    }
  });
});

describe('resumes through other names of the same journal', () => {
  it('a symlink and a path with .. are one journal: one of them runs, whatever the data folders', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const { env, created, state } = await service();
      const file = inputOf(['A', 'bad1', 'bad2', 'B']);
      const first = await run(['pets', 'import', file], env);
      expect(first.code, first.stderr).toBe(5);
      const journal = journalNamed(first.stderr);
      const folder = join(journal, '..');
      mkdirSync(join(folder, 'sub'));
      symlinkSync(journal, join(folder, 'sub', 'link.journal'));
      const names = [
        journal,
        join(folder, 'sub', 'link.journal'),
        join(folder, 'sub', '..', basename(journal)),
        join(folder, '.', basename(journal)),
      ];
      state.refusing = false;
      // Each with a data folder of its own (another HOME, a CI job beside a person): only
      // the locks every run on the machine shares can keep them apart.
      const resumes = await Promise.all(
        names.map((name) =>
          run(['pets', 'import', '--resume', name, '--retry-failed'], {
            ...env,
            XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'petstore-data-')),
          }),
        ),
      );
      const stderr = resumes.map((resumed) => resumed.stderr).join('\n');
      expect(created.sort(), stderr).toEqual(['A', 'B', 'bad1', 'bad2']);
      expect(
        resumes.every((resumed) => resumed.code === 0 || resumed.code === 2),
        stderr,
      ).toBe(true);
    }
  });
});

describe('a pipe whose reader is slow', () => {
  it('loses no record when the run is killed with lines still queued for it', async () => {
    const { env, created } = await service();
    // Long names: the pipe and its reader's buffer fill up, and lines queue in the process.
    const names = Array.from({ length: 600 }, (_, i) => `P${i}-${'y'.repeat(240)}`);
    const file = inputOf(names);
    const journal = join(mkdtempSync(join(tmpdir(), 'petstore-slow-')), 'run.journal');
    const child = spawn(process.execPath, [BIN, 'pets', 'import', file, '--journal', journal], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // A reader that takes nothing until the run is killed: the pipe fills, lines queue.
    let first = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (first += chunk));
    child.stdout.pause();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // Until the service created every pet (the run is then, or soon, only waiting for its
    // reader); a record whose answer the kill still caught is unknown, completed below.
    await untilCreated(created, names.length);
    child.kill('SIGKILL');
    await exited;
    const ended = new Promise((resolve) => child.stdout.on('end', resolve));
    child.stdout.resume();
    await ended;
    expect(completeLines(first).length).toBeLessThan(names.length);
    const resumed = await run(['pets', 'import', '--resume', journal, '--retry-unknown'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const printed = [...completeLines(first), ...completeLines(resumed.stdout)].map(
      (pet) => pet.name,
    );
    expect(new Set(printed)).toEqual(new Set(names));
    expect(created).toHaveLength(names.length);
  });
});

/** Spawns a bulk add whose stdout reader takes nothing until `read()` (a slow pipe). */
function slowReader(args: string[], env: Record<string, string>, prefix: string[] = []) {
  const command = [...prefix, process.execPath, BIN, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.pause();
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    /** Resolves once the run says it has its journal (after taking its lock). */
    started: () =>
      waitUntil(() => journalOnStderr(stderr) !== undefined, 'the run to hold its journal', 30_000),
    /** Resolves once the run has written to its stdout, which nothing reads yet. */
    writing: () => waitUntil(() => child.stdout.readableLength > 0, 'a first write to stdout'),
    err: () => stderr,
    /** Resumes reading and waits for the end: exit code and everything written. */
    end: async () => {
      child.stdout.resume();
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}

/** Waits (a bounded while) until the service has created `count` pets. */
function untilCreated(created: string[], count: number): Promise<void> {
  return waitUntil(() => created.length >= count, `${count} pets created`, 30_000);
}

/**
 * A journal of a finished run none of whose pets reached stdout, as a run killed while its
 * reader took nothing leaves it: the run ends (to nowhere), then its pets are marked unprinted.
 */
async function unprintedJournal(env: Record<string, string>, names: string[], prefix: string) {
  const journal = join(mkdtempSync(join(tmpdir(), prefix)), 'run.journal');
  const done = await run(['pets', 'import', inputOf(names), '--journal', journal], env);
  expect(done.code, done.stderr).toBe(0);
  editJournal(journal, 'UPDATE records SET printed = 0');
  return journal;
}

describe('a slow pipe, more', () => {
  // About 540 KiB of lines: far more than a pipe and its reader's buffer hold (some 128 KiB).
  const names = Array.from({ length: 2000 }, (_, i) => `P${i}-${'y'.repeat(240)}`);
  /** Lines of about 270 bytes: how many one write of 4 KiB holds, at most. */
  const perWrite = Math.ceil(4096 / 260);

  it('a resume killed while catching up prints again at most a write of lines, none torn', async () => {
    const { env } = await service();
    const journal = await unprintedJournal(env, names, 'petstore-catchup-');
    const outputs: string[] = [];
    // Three resumes, each killed while its catch-up waits for the slow reader.
    for (let round = 0; round < 3; round++) {
      const resume = slowReader(['pets', 'import', '--resume', journal], env);
      // Once it holds the journal (a killed run's lock is taken over after a while), its
      // catch-up meets the reader that takes nothing.
      await resume.started();
      await resume.writing();
      resume.child.kill('SIGKILL');
      outputs.push((await resume.end()).stdout);
    }
    const last = await run(['pets', 'import', '--resume', journal], env);
    expect(last.code, last.stderr).toBe(0);
    outputs.push(last.stdout);
    for (const output of outputs) {
      expect(output === '' || output.endsWith('\n'), 'no line is torn').toBe(true);
    }
    const printed = outputs.flatMap((output) => completeLines(output).map((pet) => pet.name));
    expect(new Set(printed)).toEqual(new Set(names));
    // Printed twice: at most the lines of the one write in progress at each of the 3 kills.
    expect(printed.length - names.length).toBeLessThanOrEqual(3 * perWrite);
    // Five runs one after another, each starting Node and SQLite: on a machine busy with
    // other work (every core loaded), more than vitest's 20 s default; each wait is bounded.
  }, 90_000);

  it('one Ctrl-C while only the slow stdout remains: the pets go out, then the summary', async () => {
    const { env, created } = await service();
    const file = inputOf(names);
    const journal = join(mkdtempSync(join(tmpdir(), 'petstore-lastout-')), 'run.journal');
    const run1 = slowReader(['pets', 'import', file, '--journal', journal], env);
    await untilCreated(created, names.length);
    run1.child.kill('SIGINT');
    await waitUntil(() => run1.err().includes('SIGINT: starting no more requests'), 'the stop');
    expect(run1.child.exitCode, 'still writing to its reader').toBeNull();
    const { code, stdout, stderr } = await run1.end();
    expect(code).toBe(130);
    expect(
      completeLines(stdout)
        .map((pet) => pet.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(stderr).toContain('SIGINT: starting no more requests');
    expect(stderr).toMatch(/"summary":\{"records":2000,"createdNow":2000/);
  });
});

describe('a run killed while requests are in flight', () => {
  it('leaves unknown only the records whose requests went out', async () => {
    let received = 0;
    let holding = true;
    let nextId = 1;
    const server = await startTestServer((req, res) => {
      received++;
      const answer = () =>
        sendJson(res, 201, JSON.stringify({ id: nextId++, ...(JSON.parse(req.body) as object) }));
      if (holding) setTimeout(answer, 5_000).unref();
      else answer();
    });
    servers.push(server);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_in_flight',
    };
    const file = inputOf(Array.from({ length: 40 }, (_, i) => `pet-${i}`));
    const journal = join(mkdtempSync(join(tmpdir(), 'petstore-inflight-')), 'run.journal');
    const child = spawn(
      process.execPath,
      [BIN, 'pets', 'import', file, '--journal', journal, '--concurrency', '4'],
      { env, stdio: 'ignore' },
    );
    await waitUntil(() => received >= 4, 'four requests held by the service');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(received).toBe(4);
    holding = false;
    const resumed = await run(['pets', 'import', '--resume', journal], env);
    // The 4 sent are unknown (exit 7); the 36 never sent are sent now, none of them unknown.
    expect(resumed.code, resumed.stderr).toBe(7);
    const summary = JSON.parse(
      resumed.stderr
        .trim()
        .split('\n')
        .find((line) => line.startsWith('{"summary"'))!,
    ) as { summary: { unknown: number; createdNow: number } };
    expect(summary.summary).toMatchObject({ unknown: 4, createdNow: 36 });
  });
});

/** Another pid namespace on this host, as a container with the host's network has (root). */
const otherNamespace =
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['-p', '-f', '--kill-child', '--mount-proc', 'true']).status === 0;

describe('a resume that holds its journal', () => {
  // Lines of some 250 bytes: far more than a pipe and its reader's buffer hold.
  const names = Array.from({ length: 1500 }, (_, i) => `P${i}-${'z'.repeat(240)}`);

  /** A journal of a finished run whose resume has every line still to print. */
  const journalToResume = (env: Record<string, string>) =>
    unprintedJournal(env, names, 'petstore-held-');

  for (const where of ['this pid namespace', 'another pid namespace'] as const) {
    const prefix =
      where === 'this pid namespace' ? [] : ['unshare', '-p', '-f', '--kill-child', '--mount-proc'];
    it.runIf(where === 'this pid namespace' || otherNamespace)(
      `keeps it from a second resume while it runs (in ${where}); the refusal says so, and that nothing needs clearing`,
      async () => {
        const { env } = await service();
        const journal = await journalToResume(env);
        // Held: it prints what the first run did not, to a reader that takes nothing.
        const holder = slowReader(['pets', 'import', '--resume', journal], env, prefix);
        await holder.started();
        const second = await run(['pets', 'import', '--resume', journal, '--retry-unknown'], env);
        expect(second.code, second.stderr).toBe(2);
        const refusal = second.stderr;
        expect(refusal).toContain(`the journal ${journal} is in use by another petstore run`);
        expect(refusal).toContain('there is nothing to clear');
        const first = await holder.end();
        expect(first.code, first.stderr).toBe(0);
        // Its owner gone, the journal is free at once: nothing to clear by hand.
        const third = await run(['pets', 'import', '--resume', journal], env);
        expect(third.code, third.stderr).toBe(0);
      },
    );
  }

  it('keeps it from a resume through a hard link, from another HOME, with only node on PATH', async () => {
    const { env } = await service();
    const journal = await journalToResume(env);
    const hardLink = join(journal, '..', 'hard.journal');
    linkSync(journal, hardLink);
    const holder = slowReader(['pets', 'import', '--resume', journal], env);
    await holder.started();
    // A PATH with node alone: no helper program takes part in the lock.
    const onlyNode = mkdtempSync(join(tmpdir(), 'petstore-path-'));
    symlinkSync(process.execPath, join(onlyNode, 'node'));
    const elsewhere = {
      ...env,
      PATH: onlyNode,
      HOME: freshHome(),
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'petstore-data-')),
    };
    const resume = ['pets', 'import', '--resume', hardLink, '--retry-unknown'];
    const second = await run(resume, elsewhere);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`the journal ${hardLink} is in use by another petstore run`);
    const first = await holder.end();
    expect(first.code, first.stderr).toBe(0);
    const third = await run(['pets', 'import', '--resume', hardLink, '--print-all'], elsewhere);
    expect(third.code, third.stderr).toBe(0);
    expect(completeLines(third.stdout)).toHaveLength(names.length);
  });
});

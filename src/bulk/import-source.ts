import { createReadStream, existsSync } from 'node:fs';
import { lstat, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InputFormat } from '../core/contract.js';
import { tryLock } from '../core/kernel-lock.js';
import type { NewPet } from '../core/interface.js';
import { readInputRecords } from './input-format.js';
import { utf8Text } from './input-text.js';
import type { InputRecords, ReadRecord } from './records.js';
import type { StopReading } from './stop-reading.js';

/**
 * Where an import's records come from, read as often as the run needs (a first reading to
 * check them, a second to send them): a file, read again from its start; standard input,
 * copied as it is first read into a private scratch file (it can be read only once); or pets
 * an agent gave as data.
 */
export interface ImportSource {
  /** How the input is named in messages: its path, or "standard input". */
  label: string;
  /** Its records from the start, in the format given (after the first reading: the one found). */
  read(format?: InputFormat, stop?: StopReading): Promise<InputRecords>;
  /** Removes what the source made (standard input's copy). */
  close(): Promise<void>;
}

const SCRATCH_PREFIX = 'petstore-import-';
const SCRATCH_LOCK = 'in-use.lock';

/**
 * A scratch folder of the user's alone, removed with what it holds by `remove`. The run holds
 * a kernel lock in it while it lives: one a kill -9 left behind is known by its free lock, and
 * removed by `journal prune` (removeLeftScratch).
 */
export async function scratchFolder(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), SCRATCH_PREFIX));
  const lock = await tryLock(join(path, SCRATCH_LOCK), { announce: false });
  return {
    path,
    remove: async () => {
      if (lock.taken) await lock.release();
      await rm(path, { recursive: true, force: true });
    },
  };
}

/**
 * Removes the scratch folders of this user's runs that ended without removing theirs (killed):
 * those whose lock no run holds. Says how many went (in a dry run, would go).
 */
export async function removeLeftScratch(dryRun: boolean): Promise<number> {
  const folder = tmpdir();
  const names = await readdir(folder).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((found) => found.startsWith(SCRATCH_PREFIX))) {
    const path = join(folder, name);
    // Another user's, or no folder of petstore's making: not ours to judge.
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined || !info.isDirectory() || info.uid !== process.getuid?.()) continue;
    const lockFile = join(path, SCRATCH_LOCK);
    if (existsSync(lockFile)) {
      // Its run made it and holds it while it lives.
      const lock = await tryLock(lockFile, { announce: false }).catch(() => undefined);
      if (lock?.taken !== true) continue;
      await lock.release();
    } else if (Date.now() - info.mtimeMs < 60_000) {
      // No lock yet: a run that made it this minute may be about to take it.
      continue;
    }
    if (!dryRun) await rm(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Pets given as data, each already checked: a record each, at its own place. */
export function givenSource(pets: readonly NewPet[]): ImportSource {
  function* records(): Generator<ReadRecord> {
    for (const [index, pet] of pets.entries()) {
      const where = `item ${index + 1}`;
      const base = { position: index + 1, where, reasons: [], hadId: false, statusChanged: false };
      yield { ...base, pet, written: '' };
    }
  }
  return {
    label: 'the pets given',
    read: () => Promise.resolve({ format: undefined, records: records(), header: () => undefined }),
    close: () => Promise.resolve(),
  };
}

/**
 * An input by its path, or `-` for standard input; `open` gives its bytes from the start (the
 * front end's: it knows its standard input, and says what a path that cannot be read is).
 */
export function inputSource(
  input: string,
  openInput: (input: string) => Promise<AsyncIterable<Uint8Array>>,
  options: { given: InputFormat | undefined; name: string },
): ImportSource {
  const label = input === '-' ? 'standard input' : input;
  let spool: { path: string; remove: () => Promise<void> } | undefined;
  let spooled: Promise<void> | undefined;
  const bytes = async (): Promise<AsyncIterable<Uint8Array>> => {
    if (input !== '-') return openInput(input);
    if (spooled !== undefined) {
      await spooled;
      return createReadStream(join(spool!.path, 'input'));
    }
    spool = await scratchFolder();
    const copy = await open(join(spool.path, 'input'), 'wx', 0o600);
    const done = Promise.withResolvers<undefined>();
    spooled = done.promise;
    const stdin = await openInput(input);
    return (async function* () {
      try {
        for await (const chunk of stdin) {
          await copy.write(chunk);
          yield chunk;
        }
        done.resolve(undefined);
      } finally {
        await copy.close();
        done.resolve(undefined);
      }
    })();
  };
  return {
    label,
    read: async (format, stop) =>
      readInputRecords(utf8Text(stop ? stop.bytes(await bytes()) : await bytes(), label), label, {
        given: format ?? options.given,
        name: options.name,
      }),
    close: async () => {
      await spool?.remove();
    },
  };
}

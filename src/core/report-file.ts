import {
  lstat,
  open,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';

/**
 * Where a link leads, followed through every link; a dangling one, to the path it names.
 * Undefined for links that lead round in a loop (nothing to write to).
 */
async function destinationOf(path: string): Promise<string | undefined> {
  const link = await lstat(path).catch(() => undefined);
  if (!link?.isSymbolicLink()) return path;
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    const target = resolve(dirname(path), await readlink(path));
    // A dangling link whose target is itself a link leads on: followed the same way.
    return target === path ? undefined : destinationOf(target);
  }
}

/** A report being written: its text a piece at a time, then in place (or thrown away). */
export interface ReportFile {
  write(text: string): Promise<void>;
  /** Puts the report in place: nothing of it is seen before. */
  close(): Promise<void>;
  /** Leaves what was there as it was. */
  discard(): Promise<void>;
}

/**
 * Opens a report (a JUnit file, a rejects file) where the user asked, never replacing what is
 * there by something else: a regular file (or none) is replaced whole and at once (written
 * beside it, then renamed, keeping its mode), so a reader never sees half a report; a link is
 * followed and its target written, the link kept; a device, FIFO or socket (/dev/stdout, a
 * pipe) is written into as it is; a folder is refused. Nothing is left behind on failure.
 */
export async function openReportFile(path: string, what: string): Promise<ReportFile> {
  const failed = (why: string) =>
    new UsageError(`cannot write the ${what} ${path}: ${why}`, {
      hint: 'Name a file in a folder you can write to.',
    });
  const failure = (error: unknown) =>
    failed((error as NodeJS.ErrnoException).code ?? String(error));
  if (path === '') throw failed('no file name given');
  const destination = await destinationOf(path);
  if (destination === undefined) throw failed('its links lead round in a loop');
  const existing = await stat(destination).catch(() => undefined);
  if (existing?.isDirectory()) throw failed('it is a folder');
  const direct = existing !== undefined && !existing.isFile();
  const temporary = `${destination}.${process.pid}.tmp`;
  let file: FileHandle;
  try {
    file = direct
      ? await open(destination, 'a')
      : await open(temporary, 'w', existing ? existing.mode & 0o7777 : 0o666);
  } catch (error) {
    throw failure(error);
  }
  const closeAnd = async (then: () => Promise<void>) => {
    try {
      await file.close();
      await then();
    } catch (error) {
      if (!direct) await rm(temporary, { force: true });
      throw failure(error);
    }
  };
  return {
    write: async (text) => {
      try {
        await file.write(text);
      } catch (error) {
        await file.close().catch(() => undefined);
        if (!direct) await rm(temporary, { force: true });
        throw failure(error);
      }
    },
    close: () => closeAnd(async () => (direct ? undefined : rename(temporary, destination))),
    discard: () => closeAnd(async () => (direct ? undefined : rm(temporary, { force: true }))),
  };
}

/** Writes a whole report at once (see openReportFile). */
export async function writeReportFile(path: string, text: string, what: string): Promise<void> {
  const report = await openReportFile(path, what);
  try {
    await report.write(text);
  } catch (error) {
    await report.discard().catch(() => undefined);
    throw error;
  }
  await report.close();
}

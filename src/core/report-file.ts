import { lstat, readlink, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
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

/**
 * Writes a report (a JUnit file) where the user asked, never replacing what is there by
 * something else: a regular file (or none) is replaced whole and at once (written beside it,
 * then renamed, keeping its mode), so a reader never sees half a report; a link is followed and
 * its target written, the link kept; a device, FIFO or socket (/dev/stdout, a pipe) is written
 * into as it is; a folder is refused. Nothing is left behind on failure.
 */
export async function writeReportFile(path: string, text: string, what: string): Promise<void> {
  const failed = (why: string) =>
    new UsageError(`cannot write the ${what} ${path}: ${why}`, {
      hint: 'Name a file in a folder you can write to.',
    });
  if (path === '') throw failed('no file name given');
  const destination = await destinationOf(path);
  if (destination === undefined) throw failed('its links lead round in a loop');
  const existing = await stat(destination).catch(() => undefined);
  if (existing?.isDirectory()) throw failed('it is a folder');
  try {
    if (existing && !existing.isFile()) {
      await writeFile(destination, text);
      return;
    }
    const temporary = `${destination}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, text, { mode: existing ? existing.mode & 0o7777 : 0o666 });
      await rename(temporary, destination);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  } catch (error) {
    throw failed((error as NodeJS.ErrnoException).code ?? String(error));
  }
}

import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `folder` and any missing parents, like `mkdir -p`; resolves true when it made
 * `folder` itself. Node's own recursive mkdir never
 * returns when a parent refuses new entries with ENOENT (e.g. under /proc); this walks up at
 * most once per path segment, so a bad path ends in an error, not a hang. Synchronous inside:
 * a few system calls, where node:fs/promises would cost a command about 10 ms to load.
 */
export function makeFolder(folder: string, mode: number): Promise<boolean> {
  return new Promise((resolve) => resolve(makeFolderNow(folder, mode)));
}

/** Whether this call made `folder` (false: it was there), so only then may its mode be set. */
function makeFolderNow(folder: string, mode: number): boolean {
  try {
    mkdirSync(folder, { mode });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (statSync(folder).isDirectory()) return false;
      throw error;
    }
    const parent = dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    makeFolderNow(parent, mode);
  }
  // The parent exists now; a second ENOENT is final.
  try {
    mkdirSync(folder, { mode });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    return false;
  }
}

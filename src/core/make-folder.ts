import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `folder` and any missing parents, like `mkdir -p`. Node's own recursive mkdir never
 * returns when a parent refuses new entries with ENOENT (e.g. under /proc); this walks up at
 * most once per path segment, so a bad path ends in an error, not a hang. Synchronous inside:
 * a few system calls, where node:fs/promises would cost a command about 10 ms to load.
 */
export function makeFolder(folder: string, mode: number): Promise<void> {
  return new Promise((resolve) => {
    makeFolderNow(folder, mode);
    resolve();
  });
}

function makeFolderNow(folder: string, mode: number): void {
  try {
    mkdirSync(folder, { mode });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (statSync(folder).isDirectory()) return;
      throw error;
    }
    const parent = dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    makeFolderNow(parent, mode);
  }
  // The parent exists now; a second ENOENT is final.
  try {
    mkdirSync(folder, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
  }
}

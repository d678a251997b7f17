import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Creates `folder` and any missing parents, like `mkdir -p`. Node's own recursive mkdir never
 * returns when a parent refuses new entries with ENOENT (e.g. under /proc); this walks up at
 * most once per path segment, so a bad path ends in an error, not a hang.
 */
export async function makeFolder(folder: string, mode: number): Promise<void> {
  try {
    await mkdir(folder, { mode });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(folder)).isDirectory()) return;
      throw error;
    }
    const parent = dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    await makeFolder(parent, mode);
  }
  // The parent exists now; a second ENOENT is final.
  await mkdir(folder, { mode }).catch(async (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' || !(await stat(folder)).isDirectory()) throw error;
  });
}
